/** The standalone SVG of a flow (the .svg file of npm run flows:diagram), written as text. */
import { metaOf, stringMeta, type StateNode } from '../../domain/flow/model';
import { keyOf, type EdgeKind, type FlowFacts, type Line } from './facts';
import {
  FONT_FAMILY,
  FONT_SIZE,
  LABEL_FONT_SIZE,
  labelSize,
  layoutLabel,
  layoutScope,
  LINE_HEIGHT,
  PADDING_X,
  PADDING_Y,
  START_SIZE,
  textWidth,
  type NodeBox,
  type Point,
  type ScopeLayout,
} from './layout';

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

export function svgOf(facts: FlowFacts): string {
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

