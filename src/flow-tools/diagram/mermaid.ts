/** The Mermaid state-diagram text of a flow (the .mmd file of npm run flows:diagram). */
import { allNodes, metaOf, stringMeta, type StateNode } from '../../domain/flow/model';
import { stateLines, type FlowFacts } from './facts';

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

export function mermaidOf(facts: FlowFacts): string {
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

