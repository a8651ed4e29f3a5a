/**
 * The flow lint's checklist (issue 6): for each kind of mistake, one small hand edit of a shipped
 * flow file, as a product owner would make it, and the exact file, JSON path and line the lint
 * reports. The line is found independently of the lint: it is the line that holds the edit.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { formatProblem, lintFlows, type FlowProblem } from '../../src/flow-tools/lint';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (rel: string) => readFileSync(join(root, rel), 'utf8');
const schema = JSON.parse(read('flows/flow.schema.json')) as object;
const shipped = { general: read('flows/general.json'), child: read('flows/child.json') };
type FlowName = keyof typeof shipped;

/** The forms the shipped flows name are the known forms here (the CLI reads them from schemas/). */
const formNames = [...new Set(Object.values(shipped).flatMap((text) => [...text.matchAll(/"form": "([^"]+)"/g)].map((m) => m[1] ?? '')))];

/** The shipped file with each `from` (which must occur exactly once) replaced by `to`. */
function edited(flow: FlowName, edits: Array<[from: string, to: string]>): string {
  let text = shipped[flow];
  for (const [from, to] of edits) {
    expect(text.split(from).length - 1, `"${from}" must occur once in flows/${flow}.json`).toBe(1);
    text = text.replace(from, to);
  }
  return text;
}

/** 1-based line of the only line containing `marker`. */
function lineOf(text: string, marker: string): number {
  const lines = text.split('\n');
  const found = lines.flatMap((l, i) => (l.includes(marker) ? [i + 1] : []));
  expect(found, `"${marker}" must be on exactly one line`).toHaveLength(1);
  return found[0] ?? 0;
}

/** Lints the edited flow together with the other shipped flow, as npm run flows:check does. */
function lint(flow: FlowName, text: string): FlowProblem[] {
  const files = (Object.keys(shipped) as FlowName[]).map((name) => ({ fileName: `flows/${name}.json`, text: name === flow ? text : shipped[name] }));
  return lintFlows(files, schema, formNames);
}

interface Case {
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

const cases: Case[] = [
  {
    kind: 'invalid JSON (a trailing comma)',
    flow: 'general',
    edits: [['"title": "ご職業・お勤め先の入力" }', '"title": "ご職業・お勤め先の入力", }']],
    pointer: '/states/workplace/meta',
    lineWith: '"title": "ご職業・お勤め先の入力", }',
    message: 'trailing comma before "}" (remove the last ",")',
  },
  {
    kind: 'schema error (a misspelt key)',
    flow: 'general',
    edits: [['"screen": "Workplace"', '"scren": "Workplace"']],
    pointer: '/states/workplace/meta/scren',
    lineWith: '"scren"',
    message: 'unknown key "scren" (allowed keys here: path, screen, step, form, entry, title, exitTo). Did you mean "screen"?',
  },
  {
    kind: 'schema error (a step that is not a whole number)',
    flow: 'child',
    edits: [['"step": 3,', '"step": "3",']],
    pointer: '/states/branch/meta/step',
    lineWith: '"step": "3"',
    message: '"step" must be integer, not string "3"',
  },
  {
    kind: 'unknown guard',
    flow: 'general',
    edits: [['"guard": "supplementRequested"', '"guard": "supplementRequestd"']],
    pointer: '/states/ekycCallback/invoke/onDone/0/guard',
    lineWith: 'supplementRequestd',
    message: 'unknown guard "supplementRequestd" (known guards: supplementRequested). Did you mean "supplementRequested"?',
  },
  {
    kind: 'unknown action',
    flow: 'general',
    edits: [['"storeBankCode"', '"storeBankcode"']],
    pointer: '/states/term/on/NEXT/actions/0/type',
    lineWith: 'storeBankcode',
    message: 'unknown action "storeBankcode" (known actions: clearSessionStorage, storeBankCode, forgetAuthenticationToken, leaveForProvider, clearApplicationTraces). Did you mean "storeBankCode"?',
  },
  {
    kind: 'unknown actor',
    flow: 'general',
    edits: [['"src": "completeApplication"', '"src": "completeApp"']],
    pointer: '/states/redirect/invoke/src',
    lineWith: '"completeApp"',
    message: 'unknown actor "completeApp" (known actors: startEkyc, pollEkycStatus, completeApplication). Did you mean "completeApplication"?',
  },
  {
    kind: 'unknown screen',
    flow: 'child',
    edits: [['"screen": "Parent"', '"screen": "Parents"']],
    pointer: '/states/parent/meta/screen',
    lineWith: '"Parents"',
    message: 'unknown screen "Parents" (known screens: GeneralTerm, ',
  },
  {
    kind: 'unknown schema (form) name',
    flow: 'general',
    edits: [['"form": "branch"', '"form": "branches"']],
    pointer: '/states/branch/meta/form',
    lineWith: '"branches"',
    message: 'unknown form "branches" (known forms, schemas/<form>.schema.json: ',
  },
  {
    kind: 'a form screen without its form',
    flow: 'general',
    edits: [[', "form": "branch"', '']],
    pointer: '/states/branch/meta',
    lineWith: '"path": "/branch"',
    message: 'screen "FormStep" asks a form: name it in "form" (known forms, schemas/<form>.schema.json: ',
  },
  {
    kind: 'a form on a screen that asks none',
    flow: 'general',
    edits: [['"screen": "FormStep", "step": 4, "form": "sealLess"', '"screen": "Complete", "step": 4, "form": "sealLess"']],
    pointer: '/states/sealLess/meta/form',
    lineWith: '"screen": "Complete", "step": 4',
    message: 'screen "Complete" asks no form, so "form" would be ignored; remove it (screens with a form: FormStep, Personal, Workplace, Confirmation, Parent, Pin)',
  },
  {
    kind: 'eKYC polling settings out of range (seconds written for milliseconds)',
    flow: 'child',
    edits: [['"intervalMs": 5000', '"intervalMs": 5']],
    pointer: '/states/ekycCallback/invoke/input/intervalMs',
    lineWith: '"intervalMs": 5,',
    message: '"intervalMs" must be a whole number from 1000 to 60000 (milliseconds between two status checks: 5000 is 5 seconds), not 5',
  },
  {
    kind: 'duplicate path',
    flow: 'general',
    edits: [['"path": "/seal-less"', '"path": "/branch"']],
    pointer: '/states/sealLess/meta/path',
    lineWith: '"screen": "FormStep", "step": 4',
    message: 'path "/branch" is already used by state "branch" (line ',
  },
  {
    kind: 'transition to a missing state',
    flow: 'general',
    edits: [['"NEXT": "sealLess"', '"NEXT": "sealless"']],
    pointer: '/states/branch/on/NEXT',
    lineWith: '"sealless"',
    message: 'transition target "sealless" does not exist (states: term, ',
  },
  {
    kind: 'state unreachable from the start',
    flow: 'general',
    edits: [
      ['"NEXT": "confirmation", "BACK": "branch"', '"NEXT": "pin", "BACK": "branch"'],
      ['"NEXT": "ekycPreparation", "BACK": "confirmation"', '"NEXT": "ekycPreparation", "BACK": "sealLess"'],
    ],
    pointer: '/states/confirmation',
    lineWith: '"confirmation": {',
    message: 'state "confirmation" can never be reached: no transition leads to it from the initial state "term", an entry page or the error page',
  },
  {
    kind: 'state unreachable: the eKYC return page is only reached from outside (meta.entry)',
    flow: 'general',
    edits: [['"step": 7, "entry": true,', '"step": 7,']],
    pointer: '/states/ekycCallback',
    lineWith: '"ekycCallback": {',
    message: 'state "ekycCallback" can never be reached',
    alsoReported: ['/states/supplement', '/states/supplementError', '/states/redirect', '/states/complete'],
  },
  {
    kind: 'dead end that is not final',
    flow: 'general',
    edits: [['"on": { "RETRY": "supplement" }', '"entry": [{ "type": "clearSessionStorage" }]']],
    pointer: '/states/supplementError',
    lineWith: '"supplementError": {',
    message: 'state "supplementError" is a dead end: it has no transition that leads anywhere; add one, or mark it "type": "final"',
  },
  {
    kind: 'dead end: the hand-over to the identity provider without "leaveForProvider"',
    flow: 'child',
    edits: [['"onDone": { "target": "leaving", "actions": [{ "type": "leaveForProvider" }] }', '"onDone": "leaving"']],
    pointer: '/states/parentEkycPreparation/states/leaving',
    lineWith: '"leaving": {}',
    message: 'state "parentEkycPreparation.leaving" is a dead end: neither it nor "parentEkycPreparation" has a transition that leads anywhere',
  },
  {
    kind: 'dead end: an invoked actor without onError',
    flow: 'general',
    edits: [['"onDone": "complete",\n        "onError": "error"', '"onDone": "complete"']],
    pointer: '/states/redirect/invoke',
    lineWith: '"src": "completeApplication"',
    lineDelta: -1, // the "invoke" key, on the line above
    message: 'the invoked actor "completeApplication" in "redirect" has no onError',
  },
  {
    kind: 'step counters out of order (two steps swapped)',
    flow: 'general',
    edits: [
      ['"step": 3,', '"step": 4,'],
      ['"step": 4, "form": "sealLess"', '"step": 3, "form": "sealLess"'],
    ],
    pointer: '/states/sealLess/meta/step',
    lineWith: '"/seal-less"',
    message: 'step 3 of "sealLess" is lower than step 4 of "branch", which leads to it by NEXT; steps must not go down',
  },
  {
    kind: 'step counters out of order (two pages reordered, steps left as they were)',
    flow: 'general',
    edits: [
      ['"NEXT": "branch", "BACK": "personal"', '"NEXT": "sealLess", "BACK": "personal"'],
      ['"NEXT": "sealLess", "BACK": "workplace"', '"NEXT": "confirmation", "BACK": "sealLess"'],
      ['"NEXT": "confirmation", "BACK": "branch"', '"NEXT": "branch", "BACK": "workplace"'],
      ['"NEXT": "pin", "BACK": "sealLess"', '"NEXT": "pin", "BACK": "branch"'],
    ],
    pointer: '/states/branch/meta/step',
    lineWith: '"path": "/branch"',
    message: 'step 3 of "branch" is lower than step 4 of "sealLess", which leads to it by NEXT; steps must not go down',
  },
  {
    kind: 'step counters out of order (the eKYC return page below the hand-over page)',
    flow: 'child',
    edits: [['"step": 12, "entry": true', '"step": 11, "entry": true']],
    pointer: '/states/ekycCallback/meta/step',
    lineWith: '"step": 11',
    message: 'step 11 of "ekycCallback" is lower than step 12 of "parentEkycPreparation", which hands over to the identity provider',
  },
  {
    kind: 'a step page with no way back where the spec has one',
    flow: 'general',
    edits: [['"NEXT": "confirmation", "BACK": "branch"', '"NEXT": "confirmation"']],
    pointer: '/states/sealLess/on',
    lineWith: '"NEXT": "confirmation" }',
    message: 'step page "sealLess" has no BACK transition, but "branch" leads to it by NEXT; add "BACK": "branch"',
  },
  {
    kind: 'a way back to a page the applicant did not come from',
    flow: 'child',
    edits: [['"NEXT": "confirmation", "BACK": "parent"', '"NEXT": "confirmation", "BACK": "personal"']],
    pointer: '/states/branch/on/BACK',
    lineWith: '"NEXT": "confirmation", "BACK": "personal"',
    message: 'BACK from "branch" leads to "personal", but "personal" does not lead to "branch" by NEXT (pages that do: parent)',
  },
];

describe('the lint names file, JSON path and line for each kind of mistake', () => {
  it('passes the shipped flows', () => {
    expect(lint('general', shipped.general)).toEqual([]);
  });

  it.each(cases)('$kind', ({ flow, edits, pointer, lineWith, lineDelta = 0, message, alsoReported = [] }) => {
    const text = edited(flow, edits);
    const problems = lint(flow, text);
    const problem = problems.find((p) => p.pointer === pointer && p.message.includes(message));
    expect(problem, `got:\n${problems.map(formatProblem).join('\n')}`).toBeDefined();
    const line = lineOf(text, lineWith) + lineDelta;
    expect(problem?.file).toBe(`flows/${flow}.json`);
    expect(problem?.line).toBe(line);
    expect(formatProblem(problem as FlowProblem)).toBe(`flows/${flow}.json:${line} ${pointer}: ${problem?.message}`);
    // One edit, one message: the lint does not echo a mistake in a cascade of others.
    expect(problems.map((p) => `${p.file} ${p.pointer}`).sort()).toEqual([pointer, ...alsoReported].map((p) => `flows/${flow}.json ${p}`).sort());
  });
});

describe('npm run flows:check', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flows-check-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints file:line JSON-path: message for a broken copy and exits with 1', async () => {
    const file = join(dir, 'general.json');
    const text = edited('general', [['"NEXT": "sealLess"', '"NEXT": "sealless"']]);
    writeFileSync(file, text);
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/flows-check.ts', file], { cwd: root });
    const failure = (await run.then(
      () => undefined,
      (error: unknown) => error,
    )) as { code?: number; stderr?: string } | undefined;
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(`${file}:${lineOf(text, '"sealless"')} /states/branch/on/NEXT: transition target "sealless" does not exist`);
    expect(failure?.stderr).toContain('1 problem in the flows');
  });
});
