/**
 * The harness of the flow lint's rule tests (one file per rule in this folder): broken copies of
 * the engine's test flows, and where the lint must report each mistake. A line is always found
 * independently of the lint: by the indentation of a pretty-printed copy (lineOfPointer) or as
 * the line that holds a hand edit of the file (lineOf).
 *
 * The flows are tests/fixtures/flows/: the shipped flows as they were when these tests were
 * written, kept as the engine's test input. An edit of flows/ (the product's) never changes
 * what these tests see; the product's own flows are checked against the specification in
 * tests/product and by the lint of every build and start.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { flowPathsOf, formatProblem, lintFlow, lintFlows, type FlowProblem } from '../../../src/flow-tools/lint';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const read = (rel: string) => readFileSync(join(root, rel), 'utf8');

export const schema = JSON.parse(read('flows/flow.schema.json')) as object;
export const generalText = read('tests/fixtures/flows/general.json');
export const childText = read('tests/fixtures/flows/child.json');
const childPaths = flowPathsOf(childText);
const generalPaths = flowPathsOf(generalText);
export const formNames = ['personal', 'workplace', 'branch', 'sealLess', 'confirmation', 'pin', 'parent', 'parent-workplace'];

// The flow file as data, loosely typed on purpose: the tests break it in ways the real type forbids.
export type Loose = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- deliberately malformed test data

/** Lints one flow text against the pages of the other shipped flow. */
export function lint(text: string, fileName = 'flows/general.json'): FlowProblem[] {
  const otherFlowPaths = fileName === 'flows/child.json' ? generalPaths : childPaths;
  return lintFlow({ fileName, text, schema, formNames, otherFlowPaths });
}

/** A broken copy of general.json (or `source`), pretty-printed as JSON.stringify(…, null, 2). */
export function broken(mutate: (flow: Loose) => void, source = generalText): string {
  const flow = JSON.parse(source) as Loose;
  mutate(flow);
  return JSON.stringify(flow, null, 2);
}

/**
 * Line of a pointer in JSON.stringify(…, null, 2) output, found independently of the lint's own
 * locator: members of a container at depth d are the lines indented by 2(d+1).
 */
export function lineOfPointer(text: string, pointer: string): number {
  const lines = text.split('\n');
  let row = 0;
  let depth = 0;
  const segments = pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  for (const segment of segments) {
    const indent = ' '.repeat(2 * (depth + 1));
    const isArray = (lines[row] ?? '').trimEnd().endsWith('[');
    let found = -1;
    let index = 0;
    for (let r = row + 1; r < lines.length; r++) {
      const line = lines[r] ?? '';
      if (!line.startsWith(indent) || line[indent.length] === ' ') {
        if (!line.startsWith(indent)) break; // the container closed
        continue; // deeper line
      }
      const rest = line.slice(indent.length);
      if (isArray) {
        if (rest.startsWith('}') || rest.startsWith(']')) continue;
        if (index === Number(segment)) {
          found = r;
          break;
        }
        index++;
      } else if (rest.startsWith(`${JSON.stringify(segment)}:`)) {
        found = r;
        break;
      }
    }
    if (found < 0) throw new Error(`pointer ${pointer} not found in the text`);
    row = found;
    depth++;
  }
  return row + 1;
}

/** The problem at `pointer` whose message contains `fragment`; its line must be that of the pointer's key in the text. */
export function expectProblem(problems: FlowProblem[], text: string, pointer: string, fragment: string): FlowProblem {
  const problem = problems.find((p) => p.pointer === pointer && p.message.includes(fragment));
  expect(problem, `no problem at ${pointer} containing ${JSON.stringify(fragment)}; got:\n${problems.map(formatProblem).join('\n')}`).toBeDefined();
  expect(problem?.line).toBe(lineOfPointer(text, pointer));
  expect(problem?.file).toBe(problems[0]?.file === 'flows/child.json' ? 'flows/child.json' : 'flows/general.json');
  return problem as FlowProblem;
}

// ---------------------------------------------------------------------------------------------
// The checklist of kinds (issue 6): one small hand edit of a shipped flow file, as a product
// owner would make it, and the exact file, JSON path and line the lint reports.
// ---------------------------------------------------------------------------------------------

/** The engine's test flows, named by the files they stand for (their file names in messages are flows/<name>.json). */
export const shipped = { general: generalText, child: childText };
export type FlowName = keyof typeof shipped;

/** The forms the shipped flows name are the known forms here (the CLI reads them from schemas/). */
// A page's form is a name or a list of names ("form": ["parent", "parent-workplace"]).
const shippedFormNames = [
  ...new Set(Object.values(shipped).flatMap((text) => [...text.matchAll(/"form": ("[^"]+"|\[[^\]]*\])/g)].flatMap((m) => [JSON.parse(m[1] ?? '[]') as string | string[]].flat()))),
];

/** The shipped file with each `from` (which must occur exactly once) replaced by `to`. */
export function edited(flow: FlowName, edits: Array<[from: string, to: string]>): string {
  let text = shipped[flow];
  for (const [from, to] of edits) {
    expect(text.split(from).length - 1, `"${from}" must occur once in flows/${flow}.json`).toBe(1);
    text = text.replace(from, to);
  }
  return text;
}

/** 1-based line of the only line containing `marker`. */
export function lineOf(text: string, marker: string): number {
  const lines = text.split('\n');
  const found = lines.flatMap((l, i) => (l.includes(marker) ? [i + 1] : []));
  expect(found, `"${marker}" must be on exactly one line`).toHaveLength(1);
  return found[0] ?? 0;
}

/** Lints the edited flow together with the other shipped flow, as npm run flows:check does. */
export function lintEdited(flow: FlowName, text: string): FlowProblem[] {
  const files = (Object.keys(shipped) as FlowName[]).map((name) => ({ fileName: `flows/${name}.json`, text: name === flow ? text : shipped[name] }));
  return lintFlows(files, schema, shippedFormNames);
}

export interface KindCase {
  kind: string;
  flow: FlowName;
  edits: Array<[string, string]>;
  pointer: string;
  /** Text on the reported line of the edited file (or `lineDelta` lines before or after it). */
  lineWith: string;
  lineDelta?: number;
  message: string;
  /** Other states that depend on the broken one are reported too. */
  alsoReported?: string[];
}

/** The edit is reported at its pointer and line, with the message, and nothing else is. */
export function expectKind({ flow, edits, pointer, lineWith, lineDelta = 0, message, alsoReported = [] }: KindCase): void {
  const text = edited(flow, edits);
  const problems = lintEdited(flow, text);
  const problem = problems.find((p) => p.pointer === pointer && p.message.includes(message));
  expect(problem, `got:\n${problems.map(formatProblem).join('\n')}`).toBeDefined();
  const line = lineOf(text, lineWith) + lineDelta;
  expect(problem?.file).toBe(`flows/${flow}.json`);
  expect(problem?.line).toBe(line);
  expect(formatProblem(problem as FlowProblem)).toBe(`flows/${flow}.json:${line} ${pointer}: ${problem?.message}`);
  // One edit, one message: the lint does not echo a mistake in a cascade of others.
  expect(problems.map((p) => `${p.file} ${p.pointer}`).sort()).toEqual([pointer, ...alsoReported].map((p) => `flows/${flow}.json ${p}`).sort());
}
