/** What the diagram of a flow shows: its states with their lines of text, and its edges. */
import { allNodes, describeFlow, formsOf, invokesOf, isObject, metaOf, nodeTransitions, refsOf, resolvedTransitions, stepOf, stringMeta, type Json, type StateNode, type Transition } from '../../domain/flow/model';
import type { FlowConfig } from '../../domain/flow/types';
import { handOverStates, providerReturnPages } from '../statechart';

export type EdgeKind = 'event' | 'back' | 'done' | 'error' | 'always' | 'provider';

export interface DiagramEdge {
  /** The states the transition really connects (the Mermaid text draws these). */
  from: StateNode;
  to: StateNode;
  label: string;
  kind: EdgeKind;
  /** JSON pointer of the transition in the flow file; "" for the provider's return, which is not one. */
  pointer: string;
  event: string;
  /** The state whose sub-states hold both ends (the root for page-to-page edges). */
  scope: StateNode;
  /** The children of `scope` that contain `from` and `to`: the SVG lays the edge out between them. */
  layoutFrom: StateNode;
  layoutTo: StateNode;
}

export interface Line {
  text: string;
  bold?: boolean;
}

export const keyOf = (node: StateNode) => node.path.join('.');

function ancestors(node: StateNode): StateNode[] {
  const out: StateNode[] = [];
  for (let n: StateNode | undefined = node; n; n = n.parent) out.push(n);
  return out;
}

/** The child of `scope` on the way down to `node` (the node itself when it is one). */
function childOfScope(scope: StateNode, node: StateNode): StateNode {
  let n = node;
  while (n.parent && n.parent !== scope) n = n.parent;
  return n;
}

function placeEdge(from: StateNode, to: StateNode): Pick<DiagramEdge, 'scope' | 'layoutFrom' | 'layoutTo'> {
  const root = ancestors(from).at(-1) ?? from;
  const toAncestors = new Set(ancestors(to).slice(1));
  // Into itself or out to a state around it: a loop on that state, in the state around it.
  const scope = ancestors(to).includes(from) && to !== from ? from.parent ?? root : ancestors(from.parent ?? root).find((a) => toAncestors.has(a)) ?? root;
  return { scope, layoutFrom: childOfScope(scope, from), layoutTo: childOfScope(scope, to) };
}

function formatInput(input: unknown): string {
  if (input === undefined) return '';
  if (isObject(input)) {
    const parts = Object.entries(input).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
    return ` (${parts.join(', ')})`;
  }
  return ` (${JSON.stringify(input)})`;
}

function transitionLabel(t: Transition): string {
  const event = t.invoke ? `${t.invoke.src} ${t.invoke.outcome}` : t.event;
  const guard = t.guard ? ` [${t.guard.value}]` : '';
  const actions = t.actions.length > 0 ? ` / ${t.actions.map((a) => a.value).join(', ')}` : '';
  return `${event}${guard}${actions}`;
}

function edgeKind(t: Transition): EdgeKind {
  if (t.invoke) return t.invoke.outcome;
  if (t.event === 'always') return 'always';
  return t.event === 'BACK' ? 'back' : 'event';
}

export interface FlowFacts {
  id: string;
  root: StateNode;
  totalSteps: number | undefined;
  applicationType: string;
  landing: string;
  errorState: string;
  edges: DiagramEdge[];
  handOvers: Set<StateNode>;
}

export function readFlow(flow: Json): FlowFacts {
  // The domain's one reader of a flow (the runtime's): the diagram draws what the applicant gets.
  const root = describeFlow(flow as unknown as FlowConfig).root;
  const meta = isObject(flow.meta) ? flow.meta : {};
  const resolved = resolvedTransitions(root);
  const targetAt = new Map(resolved.map((r) => [r.transition.pointer, r.target]));
  const handOvers = handOverStates(resolved);
  const edges: DiagramEdge[] = [];
  for (const node of allNodes(root)) {
    for (const t of nodeTransitions(node)) {
      // A transition without a target runs its actions and stays: drawn as a loop.
      const to = t.target ? targetAt.get(t.pointer) : node;
      if (!to) continue;
      edges.push({ from: node, to, label: transitionLabel(t), kind: edgeKind(t), pointer: t.pointer, event: t.event, ...placeEdge(node, to) });
    }
  }
  const returns = providerReturnPages(root);
  for (const from of handOvers) {
    for (const to of returns) {
      edges.push({ from, to, label: 'identity provider, outside the app', kind: 'provider', pointer: '', event: '', ...placeEdge(from, to) });
    }
  }
  return {
    id: String(flow.id),
    root,
    totalSteps: typeof meta.totalSteps === 'number' ? meta.totalSteps : undefined,
    applicationType: String(meta.applicationType ?? ''),
    landing: String(meta.landing ?? ''),
    errorState: String(meta.errorState ?? ''),
    edges,
    handOvers,
  };
}

export function stateLines(facts: FlowFacts, node: StateNode): Line[] {
  const meta = metaOf(node);
  const topLevel = node.parent === facts.root;
  const lines: Line[] = [{ text: topLevel ? keyOf(node) : (node.path.at(-1) ?? ''), bold: true }];
  const path = stringMeta(node, 'path');
  const step = stepOf(node);
  if (path !== undefined) lines.push({ text: step !== undefined ? `${path} · ${step}/${facts.totalSteps ?? '?'}` : path });
  const title = stringMeta(node, 'title');
  if (title !== undefined) lines.push({ text: title });
  const screen = stringMeta(node, 'screen');
  const form = formsOf(metaOf(node).form).join(' + ') || undefined;
  if (screen !== undefined || form !== undefined) lines.push({ text: [screen && `screen ${screen}`, form && `form ${form}`].filter(Boolean).join(' · ') });
  const tags: string[] = [];
  if (topLevel && keyOf(node) === facts.landing) tags.push('landing page');
  if (topLevel && keyOf(node) === facts.errorState) tags.push('error page');
  if (meta.entry === true) tags.push('entered from outside');
  if (node.config.type === 'final') tags.push('final');
  const exitTo = stringMeta(node, 'exitTo');
  if (exitTo !== undefined) tags.push(`exits to ${exitTo}`);
  if (facts.handOvers.has(node)) tags.push('leaves for the identity provider');
  if (tags.length > 0) lines.push({ text: tags.join(' · ') });
  for (const key of ['entry', 'exit'] as const) {
    const actions = refsOf(node.config[key], '').map((r) => r.value);
    if (actions.length > 0) lines.push({ text: `${key} / ${actions.join(', ')}` });
  }
  for (const inv of invokesOf(node)) lines.push({ text: `invoke ${inv.src}${formatInput(inv.config.input)}` });
  return lines;
}

