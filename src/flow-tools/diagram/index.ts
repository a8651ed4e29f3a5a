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
 */
import dagre from '@dagrejs/dagre';
import {
  allNodes,
  buildTree,
  handOverStates,
  invokesOf,
  isObject,
  metaOf,
  nodeTransitions,
  providerReturnPages,
  refsOf,
  resolvedTransitions,
  stepOf,
  stringMeta,
  type Json,
  type StateNode,
  type Transition,
} from '../statechart';

export interface FlowDiagram {
  mermaid: string;
  svg: string;
}

// ---------------------------------------------------------------------------------------------
// What is drawn
// ---------------------------------------------------------------------------------------------

type EdgeKind = 'event' | 'back' | 'done' | 'error' | 'always' | 'provider';

interface DiagramEdge {
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

interface Line {
  text: string;
  bold?: boolean;
}

const keyOf = (node: StateNode) => node.path.join('.');

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

interface FlowFacts {
  id: string;
  root: StateNode;
  totalSteps: number | undefined;
  applicationType: string;
  landing: string;
  errorState: string;
  edges: DiagramEdge[];
  handOvers: Set<StateNode>;
}

function readFlow(flow: Json): FlowFacts {
  const root = buildTree(flow);
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

function stateLines(facts: FlowFacts, node: StateNode): Line[] {
  const meta = metaOf(node);
  const topLevel = node.parent === facts.root;
  const lines: Line[] = [{ text: topLevel ? keyOf(node) : (node.path.at(-1) ?? ''), bold: true }];
  const path = stringMeta(node, 'path');
  const step = stepOf(node);
  if (path !== undefined) lines.push({ text: step !== undefined ? `${path} · ${step}/${facts.totalSteps ?? '?'}` : path });
  const title = stringMeta(node, 'title');
  if (title !== undefined) lines.push({ text: title });
  const screen = stringMeta(node, 'screen');
  const form = stringMeta(node, 'form');
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

// ---------------------------------------------------------------------------------------------
// Mermaid
// ---------------------------------------------------------------------------------------------

/** Words Mermaid's state-diagram lexer (case-insensitive) reads as keywords where an id stands. */
const MERMAID_WORDS = new Set(['end', 'state', 'note', 'direction', 'class', 'classdef', 'as', 'left', 'right', 'of', 'style', 'click', 'default', 'scale', 'acctitle', 'accdescr']);

/** Mermaid ids: the state path joined by "__" (a "." would be read as something else), made unique. */
function mermaidIds(root: StateNode): Map<StateNode, string> {
  const ids = new Map<StateNode, string>();
  const used = new Set<string>();
  for (const node of allNodes(root)) {
    if (node === root) continue;
    let id = node.path.join('__');
    if (MERMAID_WORDS.has(id.toLowerCase())) id = `${id}_`;
    for (let i = 2; used.has(id); i++) id = `${node.path.join('__')}_${i}`;
    used.add(id);
    ids.set(node, id);
  }
  return ids;
}

/**
 * Text inside a Mermaid label: numeric entity codes (#60;) for what Mermaid would read as syntax
 * (a transition label ends at ":" or ";", "#" and "%%" start comments, "\"" ends a state label)
 * or as HTML. Mermaid swaps entity codes out before it parses, so their own ";" is safe.
 */
function mermaidText(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').replace(/[#";<>&{}:`%]/g, (ch) => `#${ch.charCodeAt(0)};`);
}

function mermaidOf(facts: FlowFacts): string {
  const ids = mermaidIds(facts.root);
  const id = (n: StateNode) => ids.get(n) ?? '';
  const out: string[] = [
    '---',
    `title: ${mermaidText(`${facts.id} flow (${facts.applicationType}, ${facts.totalSteps ?? '?'} steps)`)}`,
    '---',
    'stateDiagram-v2',
    '  direction TB',
    '  classDef entry fill:#e8f0fe,stroke:#1a56c4,stroke-width:2px',
    '  classDef final stroke:#222,stroke-width:3px',
    '  classDef exit fill:#f3f3f3,stroke:#666,stroke-dasharray:4 3',
  ];
  const block = (scope: StateNode, indent: string) => {
    const initial = scope.config.initial ?? (scope === facts.root ? facts.root.config.initial : undefined);
    const first = typeof initial === 'string' ? scope.children.get(initial) : undefined;
    if (first) out.push(`${indent}[*] --> ${id(first)}`);
    for (const child of scope.children.values()) {
      const label = stateLines(facts, child)
        .map((l) => mermaidText(l.text))
        .join('<br/>');
      if (child.children.size > 0) {
        // No space before "{": Mermaid takes everything up to the brace as the id.
        out.push(`${indent}state "${label}" as ${id(child)}{`);
        block(child, `${indent}  `);
        out.push(`${indent}}`);
      } else out.push(`${indent}state "${label}" as ${id(child)}`);
    }
    for (const e of facts.edges) {
      if (e.scope === scope) out.push(`${indent}${id(e.from)} --> ${id(e.to)} : ${mermaidText(e.label)}`);
    }
    for (const child of scope.children.values()) if (child.config.type === 'final') out.push(`${indent}${id(child)} --> [*]`);
  };
  block(facts.root, '  ');
  // Classes only on top-level atomic states: Mermaid does not style composite states or states inside them.
  const styled = (pick: (n: StateNode) => boolean) => [...facts.root.children.values()].filter((n) => n.children.size === 0 && pick(n)).map(id);
  const classes: Array<[string, string[]]> = [
    ['entry', styled((n) => metaOf(n).entry === true)],
    ['exit', styled((n) => stringMeta(n, 'exitTo') !== undefined)],
    ['final', styled((n) => n.config.type === 'final' && stringMeta(n, 'exitTo') === undefined)],
  ];
  for (const [name, members] of classes) if (members.length > 0) out.push(`  class ${members.join(',')} ${name}`);
  return `${out.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// SVG: sizes, layout, text
// ---------------------------------------------------------------------------------------------

const FONT_SIZE = 12;
const LINE_HEIGHT = 16;
const PADDING_X = 10;
const PADDING_Y = 7;
const START_SIZE = 14;
/** Space between edges that share a route. */
const EDGE_GAP = 10;
const LABEL_FONT_SIZE = 11;
const FONT_FAMILY = "'Noto Sans JP', 'Hiragino Sans', 'Yu Gothic', Meiryo, 'Helvetica Neue', Arial, sans-serif";

/** Full-width code points (East Asian wide and full-width): about one em each. */
function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    cp >= 0x20000
  );
}

/** A generous estimate (no font metrics without a browser): wide characters 1 em, others 0.6 em, bold 8 % more. */
function textWidth(text: string, size: number, bold = false): number {
  let ems = 0;
  for (const ch of text) ems += isWide(ch.codePointAt(0) ?? 0) ? 1 : 0.6;
  return ems * size * (bold ? 1.08 : 1);
}

function linesSize(lines: Line[]): { width: number; height: number } {
  const width = Math.max(...lines.map((l) => textWidth(l.text, FONT_SIZE, l.bold)));
  return { width: Math.ceil(width + 2 * PADDING_X), height: lines.length * LINE_HEIGHT + 2 * PADDING_Y };
}

interface Point {
  x: number;
  y: number;
}

interface ScopeLayout {
  width: number;
  height: number;
  /** Centres of the scope's children and of its start dot, relative to the scope's content box. */
  centres: Map<StateNode, Point>;
  start: Point | undefined;
  startTarget: StateNode | undefined;
  startPoints: Point[];
  /** label: left end and vertical centre of the edge's label. */
  edges: Array<{ edge: DiagramEdge; points: Point[]; label: Point }>;
}

interface NodeBox {
  lines: Line[];
  width: number;
  height: number;
  /** Height of the header (the lines) above the nested diagram of a compound state. */
  header: number;
  inner: ScopeLayout | undefined;
}

const START = '\u0000start';

function labelSize(text: string): { width: number; height: number } {
  return { width: Math.ceil(textWidth(text, LABEL_FONT_SIZE) + 8), height: LINE_HEIGHT };
}

function layoutScope(facts: FlowFacts, scope: StateNode, boxes: Map<StateNode, NodeBox>): ScopeLayout {
  // Children first: a compound child's size is that of its own diagram plus its header.
  for (const child of scope.children.values()) {
    const lines = stateLines(facts, child);
    const head = linesSize(lines);
    if (child.children.size > 0) {
      const inner = layoutScope(facts, child, boxes);
      boxes.set(child, { lines, width: Math.max(head.width, inner.width + 2 * PADDING_X), height: head.height + inner.height + PADDING_Y, header: head.height, inner });
    } else boxes.set(child, { lines, ...head, header: head.height, inner: undefined });
  }
  const g = new dagre.graphlib.Graph<object, { width: number; height: number; x?: number; y?: number }, { width: number; height: number; labelpos: 'c' | 'r'; labeloffset?: number; points?: Point[]; x?: number; y?: number }>({
    multigraph: true,
  });
  g.setGraph({ rankdir: 'TB', nodesep: 28, ranksep: 36, edgesep: 14, marginx: 10, marginy: 10 });
  const keyFor = new Map<string, StateNode>();
  for (const child of scope.children.values()) {
    const box = boxes.get(child);
    keyFor.set(keyOf(child), child);
    g.setNode(keyOf(child), { width: box?.width ?? 0, height: box?.height ?? 0 });
  }
  const initial = scope.config.initial;
  const startTarget = typeof initial === 'string' ? scope.children.get(initial) : undefined;
  if (startTarget) {
    g.setNode(START, { width: START_SIZE, height: START_SIZE });
    g.setEdge(START, keyOf(startTarget), { width: 0, height: 0, labelpos: 'c' }, 'start');
  }
  // Edges between the same two states share one route, drawn side by side, with their labels stacked:
  // laid out apart, dagre sends the second edge of a NEXT/BACK pair on a long detour.
  const groups = new Map<string, DiagramEdge[]>();
  for (const e of facts.edges) {
    if (e.scope !== scope) continue;
    const ends = [keyOf(e.layoutFrom), keyOf(e.layoutTo)].sort().join('\n');
    groups.set(ends, [...(groups.get(ends) ?? []), e]);
  }
  const routes = [...groups.values()].flatMap((group, i) => {
    const first = group[0];
    return first ? [{ group, first, name: String(i) }] : [];
  });
  for (const { group, first, name } of routes) {
    const sizes = group.map((e) => labelSize(layoutLabel(e)));
    // Beside the route rather than on it, so no label hides a line.
    const label = { width: Math.max(...sizes.map((s) => s.width)), height: sizes.reduce((sum, s) => sum + s.height, 0), labelpos: 'r' as const, labeloffset: 6 };
    g.setEdge(keyOf(first.layoutFrom), keyOf(first.layoutTo), label, name);
  }
  dagre.layout(g);

  const graph = g.graph() as { width?: number; height?: number };
  const centres = new Map<StateNode, Point>();
  for (const [key, node] of keyFor) {
    const n = g.node(key);
    centres.set(node, { x: n.x ?? 0, y: n.y ?? 0 });
  }
  const startNode = startTarget ? g.node(START) : undefined;
  const startEdge = startTarget ? g.edge(START, keyOf(startTarget), 'start') : undefined;
  return {
    width: Math.ceil(graph.width ?? 0),
    height: Math.ceil(graph.height ?? 0),
    centres,
    start: startNode ? { x: startNode.x ?? 0, y: startNode.y ?? 0 } : undefined,
    startTarget,
    startPoints: startEdge?.points ?? [],
    edges: routes.flatMap(({ group, first, name }) => {
      const laid = g.edge(keyOf(first.layoutFrom), keyOf(first.layoutTo), name);
      const top = (laid.y ?? 0) - (group.length * LINE_HEIGHT) / 2;
      const left = (laid.x ?? 0) - Math.max(...group.map((e) => labelSize(layoutLabel(e)).width)) / 2;
      return group.map((edge, j) => {
        const points = offsetPolyline(laid.points ?? [], (j - (group.length - 1) / 2) * EDGE_GAP);
        return {
          edge,
          points: edge.layoutFrom === first.layoutFrom ? points : points.reverse(),
          label: { x: left, y: top + (j + 0.5) * LINE_HEIGHT },
        };
      });
    }),
  };
}

/** The polyline moved sideways by `distance` (along each point's normal). */
function offsetPolyline(points: Point[], distance: number): Point[] {
  if (distance === 0 || points.length < 2) return points.map((p) => ({ ...p }));
  const normal = (a: Point, b: Point): Point => {
    const length = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    return { x: -(b.y - a.y) / length, y: (b.x - a.x) / length };
  };
  return points.map((p, i) => {
    const before = i > 0 ? normal(points[i - 1] ?? p, p) : undefined;
    const after = i < points.length - 1 ? normal(p, points[i + 1] ?? p) : undefined;
    const n = before && after ? { x: (before.x + after.x) / 2, y: (before.y + after.y) / 2 } : (before ?? after ?? { x: 0, y: 0 });
    return { x: p.x + n.x * distance, y: p.y + n.y * distance };
  });
}

/** In the SVG an edge may be drawn from or to the page around its real state: the label then names that state. */
function layoutLabel(e: DiagramEdge): string {
  const rel = (outer: StateNode, inner: StateNode) => inner.path.slice(outer.path.length).join('.');
  const from = e.layoutFrom !== e.from ? `${rel(e.layoutFrom, e.from)}: ` : '';
  const to = e.layoutTo !== e.to ? ` → ${rel(e.layoutTo, e.to)}` : '';
  return `${from}${e.label}${to}`;
}

// ---------------------------------------------------------------------------------------------
// SVG: writing
// ---------------------------------------------------------------------------------------------

/** Text for XML content and attributes; characters XML 1.0 forbids become U+FFFD. */
function xml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const num = (n: number) => String(Math.round(n * 10) / 10);

const EDGE_STYLE: Record<EdgeKind, { stroke: string; dash?: string; marker: string }> = {
  event: { stroke: '#333333', marker: 'arrow' },
  back: { stroke: '#8a8a8a', dash: '6 3', marker: 'arrow-back' },
  done: { stroke: '#1b7f3b', marker: 'arrow-done' },
  error: { stroke: '#b3261e', dash: '5 3', marker: 'arrow-error' },
  always: { stroke: '#333333', marker: 'arrow' },
  provider: { stroke: '#7b4bb7', dash: '2 3', marker: 'arrow-provider' },
};

function pathData(points: Point[]): string {
  return points.map((p, i) => `${i === 0 ? 'M' : 'L'}${num(p.x)},${num(p.y)}`).join(' ');
}

function textBlock(lines: Line[], x: number, y: number): string {
  const spans = lines
    .map((l, i) => `<tspan x="${num(x)}" y="${num(y + i * LINE_HEIGHT)}"${l.bold ? ' font-weight="bold"' : ''}>${xml(l.text)}</tspan>`)
    .join('');
  return `<text font-size="${FONT_SIZE}" dominant-baseline="hanging">${spans}</text>`;
}

function svgOf(facts: FlowFacts): string {
  const boxes = new Map<StateNode, NodeBox>();
  const top = layoutScope(facts, facts.root, boxes);
  const title = `${facts.id} flow (${facts.applicationType}, ${facts.totalSteps ?? '?'} steps)`;
  const titleHeight = 30;
  const legend: Array<{ text: string; kind?: EdgeKind; box?: 'entry' | 'final' | 'handover' }> = [
    { text: 'page entered from outside', box: 'entry' },
    { text: 'final state', box: 'final' },
    { text: 'leaves for the identity provider', box: 'handover' },
    { text: 'event [guard] / actions', kind: 'event' },
    { text: 'BACK', kind: 'back' },
    { text: 'actor done', kind: 'done' },
    { text: 'actor error', kind: 'error' },
    { text: 'identity provider (outside the app)', kind: 'provider' },
  ];
  const legendHeight = legend.length * 18 + 20;
  const width = Math.max(top.width, textWidth(title, 15, true) + 20, 300);
  const height = titleHeight + top.height + legendHeight;
  const id = facts.id.replace(/[^A-Za-z0-9_-]/g, '_');

  const shapes: string[] = [];
  const lines: string[] = [];

  const drawStart = (scope: StateNode, layout: ScopeLayout, dx: number, dy: number) => {
    if (!layout.start || !layout.startTarget) return;
    shapes.push(`<circle class="start" data-scope="${xml(keyOf(scope))}" cx="${num(layout.start.x + dx)}" cy="${num(layout.start.y + dy)}" r="${START_SIZE / 2}" fill="#222222"/>`);
    const points = layout.startPoints.map((p) => ({ x: p.x + dx, y: p.y + dy }));
    lines.push(`<path class="initial" d="${pathData(points)}" fill="none" stroke="#222222" stroke-width="1.4" marker-end="url(#${id}-arrow)"/>`);
  };

  const drawScope = (scope: StateNode, layout: ScopeLayout, dx: number, dy: number) => {
    drawStart(scope, layout, dx, dy);
    for (const [node, centre] of layout.centres) {
      const box = boxes.get(node);
      if (!box) continue;
      const x = centre.x + dx - box.width / 2;
      const y = centre.y + dy - box.height / 2;
      const meta = metaOf(node);
      const entry = meta.entry === true;
      const final = node.config.type === 'final';
      const handOver = facts.handOvers.has(node);
      const classes = ['state', box.inner ? 'compound' : 'atomic', entry && 'entry', final && 'final', handOver && 'handover'].filter(Boolean).join(' ');
      const fill = entry ? '#e8f0fe' : box.inner ? '#fafafa' : '#ffffff';
      const stroke = entry ? '#1a56c4' : '#444444';
      const dash = handOver || stringMeta(node, 'exitTo') !== undefined ? ' stroke-dasharray="5 3"' : '';
      const parts = [
        `<g class="${classes}" data-state="${xml(keyOf(node))}">`,
        `<title>${xml(keyOf(node))}</title>`,
        `<rect x="${num(x)}" y="${num(y)}" width="${num(box.width)}" height="${num(box.height)}" rx="8" fill="${fill}" stroke="${stroke}" stroke-width="${entry ? 2 : 1.2}"${dash}/>`,
      ];
      if (final) parts.push(`<rect x="${num(x + 3)}" y="${num(y + 3)}" width="${num(box.width - 6)}" height="${num(box.height - 6)}" rx="6" fill="none" stroke="${stroke}" stroke-width="1.2"/>`);
      if (box.inner) parts.push(`<line x1="${num(x)}" y1="${num(y + box.header)}" x2="${num(x + box.width)}" y2="${num(y + box.header)}" stroke="#cccccc"/>`);
      parts.push(textBlock(box.lines, x + PADDING_X, y + PADDING_Y + 1), '</g>');
      shapes.push(parts.join(''));
      if (box.inner) drawScope(node, box.inner, x + (box.width - box.inner.width) / 2, y + box.header);
    }
    for (const { edge, points, label } of layout.edges) {
      const style = EDGE_STYLE[edge.kind];
      const text = layoutLabel(edge);
      const size = labelSize(text);
      const attrs = [
        `class="transition ${edge.kind}"`,
        `data-source="${xml(keyOf(edge.from))}"`,
        `data-target="${xml(keyOf(edge.to))}"`,
        edge.pointer ? `data-pointer="${xml(edge.pointer)}"` : '',
        edge.event ? `data-event="${xml(edge.event)}"` : '',
      ]
        .filter(Boolean)
        .join(' ');
      const moved = points.map((p) => ({ x: p.x + dx, y: p.y + dy }));
      lines.push(
        `<g ${attrs}><title>${xml(`${keyOf(edge.from)} → ${keyOf(edge.to)}: ${edge.label}`)}</title>` +
          `<path d="${pathData(moved)}" fill="none" stroke="${style.stroke}" stroke-width="1.4"${style.dash ? ` stroke-dasharray="${style.dash}"` : ''} marker-end="url(#${id}-${style.marker})"/>` +
          `<g class="label"><rect x="${num(label.x + dx)}" y="${num(label.y + dy - size.height / 2)}" width="${num(size.width)}" height="${num(size.height)}" rx="3" fill="#ffffff" fill-opacity="0.9"/>` +
          `<text x="${num(label.x + dx + 4)}" y="${num(label.y + dy)}" font-size="${LABEL_FONT_SIZE}" dominant-baseline="central" fill="${style.stroke}">${xml(text)}</text></g></g>`,
      );
    }
  };
  drawScope(facts.root, top, (width - top.width) / 2, titleHeight);

  const markers = Object.values(EDGE_STYLE)
    .filter((s, i, all) => all.findIndex((o) => o.marker === s.marker) === i)
    .map(
      (s) =>
        `<marker id="${id}-${s.marker}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${s.stroke}"/></marker>`,
    );

  const legendY = titleHeight + top.height + 10;
  const legendItems = legend.map((item, i) => {
    const y = legendY + i * 18;
    let sample = '';
    if (item.kind) {
      const s = EDGE_STYLE[item.kind];
      sample = `<path d="M10,${num(y + 7)} L50,${num(y + 7)}" stroke="${s.stroke}" stroke-width="1.4"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''} marker-end="url(#${id}-${s.marker})"/>`;
    } else if (item.box === 'entry') sample = `<rect x="10" y="${num(y)}" width="40" height="14" rx="4" fill="#e8f0fe" stroke="#1a56c4" stroke-width="2"/>`;
    else if (item.box === 'final') sample = `<rect x="10" y="${num(y)}" width="40" height="14" rx="4" fill="#ffffff" stroke="#444444"/><rect x="12.5" y="${num(y + 2.5)}" width="35" height="9" rx="3" fill="none" stroke="#444444"/>`;
    else sample = `<rect x="10" y="${num(y)}" width="40" height="14" rx="4" fill="#ffffff" stroke="#444444" stroke-dasharray="5 3"/>`;
    return `${sample}<text x="58" y="${num(y + 7)}" font-size="${LABEL_FONT_SIZE}" dominant-baseline="central">${xml(item.text)}</text>`;
  });

  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}" height="${num(height)}" viewBox="0 0 ${num(width)} ${num(height)}" font-family="${xml(FONT_FAMILY)}" fill="#222222">`,
    `<title>${xml(title)}</title>`,
    `<defs>${markers.join('')}</defs>`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="10" y="20" font-size="15" font-weight="bold">${xml(title)}</text>`,
    `<g class="states">${shapes.join('\n')}</g>`,
    `<g class="transitions">${lines.join('\n')}</g>`,
    `<g class="legend">${legendItems.join('')}</g>`,
    '</svg>',
    '',
  ].join('\n');
}

/** Mermaid text and SVG of one flow (the parsed content of a flows/*.json file). */
export function flowDiagram(flow: Json): FlowDiagram {
  const facts = readFlow(flow);
  return { mermaid: mermaidOf(facts), svg: svgOf(facts) };
}
