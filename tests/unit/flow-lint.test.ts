/**
 * The flow lint as a whole (src/flow-tools/lint/index.ts): the shipped flows pass, the message
 * format, the syntax errors read before any rule runs, several flows linted together and the
 * CLI. Each rule has its own tests in tests/unit/flow-lint-rules/<rule>.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { flowPathsOf, formatProblem, lintFlow, lintFlows } from '../../src/flow-tools/lint';
import { broken, childText, edited, expectKind, formNames, generalText, lineOf, lineOfPointer, lint, lintEdited, schema, shipped, type KindCase, type Loose } from './flow-lint-rules/helpers';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('shipped flows', () => {
  it('passes the shipped flows', () => {
    expect(lintEdited('general', shipped.general)).toEqual([]);
  });

  it('general and child pass, alone and together', () => {
    expect(lint(generalText)).toEqual([]);
    expect(lintFlow({ fileName: 'flows/child.json', text: childText, schema, formNames, otherFlowPaths: flowPathsOf(generalText) })).toEqual([]);
    expect(lintFlows([{ fileName: 'flows/general.json', text: generalText }, { fileName: 'flows/child.json', text: childText }], schema, formNames)).toEqual([]);
  });

  it('the pretty-printed copy used below passes too (the locator test helper finds every key)', () => {
    const text = broken(() => {});
    expect(lint(text)).toEqual([]);
    expect(lineOfPointer(text, '/states/personal/on/NEXT')).toBe(text.split('\n').findIndex((l) => l.includes('"NEXT": "workplace"')) + 1);
  });
});

describe('formatProblem', () => {
  it('prints file:line pointer: message', () => {
    expect(formatProblem({ file: 'flows/general.json', line: 42, pointer: '/states/personal/on/NEXT', message: 'transition target "workplce" does not exist' })).toBe(
      'flows/general.json:42 /states/personal/on/NEXT: transition target "workplce" does not exist',
    );
    expect(formatProblem({ file: 'flows/general.json', line: 3, pointer: '', message: 'x' })).toBe('flows/general.json:3: x');
  });
});

describe('invalid JSON', () => {
  it('reports a trailing comma at the line of the comma', () => {
    const lines = broken(() => {}).split('\n');
    const at = lines.findIndex((l) => l.includes('"title": "お申込み前の確認"'));
    lines[at] += ',';
    const problems = lint(lines.join('\n'));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.line).toBe(at + 1);
    expect(problems[0]?.pointer).toBe('/states/term/meta');
    expect(problems[0]?.message).toMatch(/^invalid JSON at line \d+ column \d+: trailing comma/);
  });

  it('reports a missing comma naming the previous key', () => {
    const lines = broken(() => {}).split('\n');
    const at = lines.findIndex((l) => l.includes('"screen": "FormStep",'));
    lines[at] = (lines[at] ?? '').replace(/,$/, '');
    const [problem] = lint(lines.join('\n'));
    expect(problem?.line).toBe(at + 2);
    expect(problem?.message).toContain('expected "," or "}" after the value of "screen"');
  });

  it('reports comments, unquoted keys and an unterminated document', () => {
    expect(lint('{\n  // note\n  "id": "x"\n}')[0]).toMatchObject({ line: 2, message: expect.stringContaining('comments are not allowed') });
    expect(lint('{\n  id: "x"\n}')[0]).toMatchObject({ line: 2, message: expect.stringContaining('double quotes') });
    expect(lint('{\n  "id": "x",\n')[0]).toMatchObject({ line: 3, message: expect.stringContaining('end of file') });
    expect(lint('')[0]).toMatchObject({ line: 1, message: expect.stringContaining('invalid JSON') });
  });

  // The kind from the lint's checklist (issue 6): a hand edit of a shipped file and its exact line.
  it.each<KindCase>([
    {
      kind: 'invalid JSON (a trailing comma)',
      flow: 'general',
      edits: [['"title": "ご職業・お勤め先の入力" }', '"title": "ご職業・お勤め先の入力", }']],
      pointer: '/states/workplace/meta',
      lineWith: '"title": "ご職業・お勤め先の入力", }',
      message: 'trailing comma before "}" (remove the last ",")',
    },
  ])('$kind', expectKind);
});

/** The lint of the two flows and one more file. */
const lintBesideShipped = (fileName: string, text: string) =>
  lintFlows([{ fileName: 'flows/general.json', text: generalText }, { fileName: 'flows/child.json', text: childText }, { fileName, text }], schema, formNames);

describe('lintFlows', () => {
  it('lintFlows finds a path clash in both files and a duplicate flow id', () => {
    const clash = broken((f) => {
      f.states.supplement.meta.path = '/child/term';
    });
    const problems = lintFlows([{ fileName: 'flows/general.json', text: clash }, { fileName: 'flows/child.json', text: childText }], schema, formNames);
    expect(problems.map((p) => `${p.file} ${p.pointer}`)).toEqual(['flows/general.json /states/supplement/meta/path', 'flows/child.json /states/term/meta/path']);
    const copy = broken((f) => {
      for (const s of Object.values(f.states) as Loose[]) if (s.meta?.path) s.meta.path = `/copy${s.meta.path}`;
    });
    const ids = lintBesideShipped('flows/copy.json', copy);
    expect(ids).toEqual([
      expect.objectContaining({ file: 'flows/copy.json', pointer: '/id', line: lineOfPointer(copy, '/id'), message: 'flow id "general" is already used by flows/general.json; each flow needs its own id' }),
      expect.objectContaining({ file: 'flows/copy.json', pointer: '/meta/applicationType', line: lineOfPointer(copy, '/meta/applicationType') }),
    ]);
  });
});

describe('a third flow file', () => {
  it('of an application type another flow already has is named, at its type', () => {
    const third = broken((f) => {
      f.id = 'student';
      for (const state of Object.values(f.states) as Loose[]) if (state.meta?.path) state.meta.path = `/student${state.meta.path as string}`;
      if (f.states.term?.meta) f.states.term.meta.path = '/student/term';
    }).replaceAll('#general.', '#student.');
    const problems = lintBesideShipped('flows/student.json', third);
    expect(problems.map((p) => `${p.file} ${p.pointer}: ${p.message}`)).toEqual([
      expect.stringMatching(/^flows\/student\.json \/meta\/applicationType: meta\.applicationType "GENERAL" is already the type of flows\/general\.json/),
    ]);
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
