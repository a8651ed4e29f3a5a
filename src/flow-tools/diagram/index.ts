/**
 * A diagram of a flow file, for product owners: flow JSON in, Mermaid state-diagram text and a
 * standalone SVG out. Pure (no fs, no DOM, no browser): the SVG is laid out with @dagrejs/dagre and
 * written as text here, with text widths estimated (full-width characters count as one em).
 *
 * Shown: every state (nested ones inside their page) with its path, step ("3/7"), title, screen
 * and form; the flow's start, the pages entered from outside (meta.entry), final states, exits to
 * another flow and the state where the applicant leaves for the identity provider; every transition
 * labelled "EVENT [guard] / actions", invoked actors with their done and error edges, and a dotted
 * edge for the identity provider's return (outside the machine). Expects a flow that passed the lint.
 *
 * facts.ts reads what is drawn, mermaid.ts writes the text, layout.ts and svg.ts the picture.
 */
import type { Json } from '../../domain/flow/model';
import { readFlow } from './facts';
import { mermaidOf } from './mermaid';
import { svgOf } from './svg';

export interface FlowDiagram {
  mermaid: string;
  svg: string;
}

/** Mermaid text and SVG of one flow (the parsed content of a flows/*.json file). */
export function flowDiagram(flow: Json): FlowDiagram {
  const facts = readFlow(flow);
  return { mermaid: mermaidOf(facts), svg: svgOf(facts) };
}
