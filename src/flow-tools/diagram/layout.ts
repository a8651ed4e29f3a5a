/**
 * The SVG's geometry: text sizes estimated without a browser (full-width characters count as one
 * em) and each state's sub-diagram laid out by @dagrejs/dagre, innermost first.
 */
import dagre from '@dagrejs/dagre';
import type { StateNode } from '../../domain/flow/model';
import { keyOf, stateLines, type DiagramEdge, type FlowFacts, type Line } from './facts';

export const FONT_SIZE = 12;
export const LINE_HEIGHT = 16;
export const PADDING_X = 10;
export const PADDING_Y = 7;
export const START_SIZE = 14;
/** Space between edges that share a route. */
const EDGE_GAP = 10;
export const LABEL_FONT_SIZE = 11;
export const FONT_FAMILY = "'Noto Sans JP', 'Hiragino Sans', 'Yu Gothic', Meiryo, 'Helvetica Neue', Arial, sans-serif";

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
export function textWidth(text: string, size: number, bold = false): number {
  let ems = 0;
  for (const ch of text) ems += isWide(ch.codePointAt(0) ?? 0) ? 1 : 0.6;
  return ems * size * (bold ? 1.08 : 1);
}

function linesSize(lines: Line[]): { width: number; height: number } {
  const width = Math.max(...lines.map((l) => textWidth(l.text, FONT_SIZE, l.bold)));
  return { width: Math.ceil(width + 2 * PADDING_X), height: lines.length * LINE_HEIGHT + 2 * PADDING_Y };
}

export interface Point {
  x: number;
  y: number;
}

export interface ScopeLayout {
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

export interface NodeBox {
  lines: Line[];
  width: number;
  height: number;
  /** Height of the header (the lines) above the nested diagram of a compound state. */
  header: number;
  inner: ScopeLayout | undefined;
}

const START = '\u0000start';

export function labelSize(text: string): { width: number; height: number } {
  return { width: Math.ceil(textWidth(text, LABEL_FONT_SIZE) + 8), height: LINE_HEIGHT };
}

export function layoutScope(facts: FlowFacts, scope: StateNode, boxes: Map<StateNode, NodeBox>): ScopeLayout {
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
export function layoutLabel(e: DiagramEdge): string {
  const rel = (outer: StateNode, inner: StateNode) => inner.path.slice(outer.path.length).join('.');
  const from = e.layoutFrom !== e.from ? `${rel(e.layoutFrom, e.from)}: ` : '';
  const to = e.layoutTo !== e.to ? ` → ${rel(e.layoutTo, e.to)}` : '';
  return `${from}${e.label}${to}`;
}

