/**
 * The domain's own type check (tsconfig.domain.json, run by npm run typecheck) must be able to
 * fail: src/domain runs in the browser and on the server, so a DOM or Node global (which no
 * import shows, so the layer check cannot see it) is a compile error there. This compiles a few
 * files with the very same options and expects each global refused, and the real domain clean.
 */
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const configFile = resolve(import.meta.dirname, '../../tsconfig.domain.json');

const fixture: Record<string, string> = {
  'reads-the-page.ts': 'export const title = document.title;\n',
  'waits.ts': 'export const later = (f: () => void) => setTimeout(f, 10);\n',
  'uses-a-buffer.ts': "export const bytes = Buffer.from('x');\n",
  'reads-the-environment.ts': 'export const level = process.env.LOG_LEVEL;\n',
  'builds-a-url.ts': "export const url = new URL('https://example.com/');\n",
  'logs.ts': "export const log = () => console.log('x');\n",
  'fine.ts': 'export const last = [1, 2].at(-1) ?? Object.hasOwn({}, "a");\n',
};

let dir: string;
let program: ts.Program;
let domainFiles: string[];

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'domain-types-')));
  for (const [file, contents] of Object.entries(fixture)) await writeFile(join(dir, file), contents);
  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error('tsconfig.domain.json could not be read');
  domainFiles = parsed.fileNames;
  program = ts.createProgram([...parsed.fileNames, ...Object.keys(fixture).map((file) => join(dir, file))], parsed.options);
}, 60_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The names the compiler could not find in one file. */
function missingNames(file: string): string[] {
  const source = program.getSourceFile(join(dir, file));
  if (!source) throw new Error(`${file} is not in the program`);
  return ts
    .getPreEmitDiagnostics(program, source)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    .map((message) => /Cannot find name '([^']+)'/.exec(message)?.[1] ?? message);
}

describe('the domain type check (tsconfig.domain.json)', () => {
  it('has neither DOM nor Node types', () => {
    expect(missingNames('reads-the-page.ts')).toEqual(['document']);
    expect(missingNames('waits.ts')).toEqual(['setTimeout']);
    expect(missingNames('uses-a-buffer.ts')).toEqual(['Buffer']);
    expect(missingNames('reads-the-environment.ts')).toEqual(['process']);
    expect(missingNames('builds-a-url.ts')).toEqual(['URL']);
    expect(missingNames('logs.ts')).toEqual(['console']);
  });

  it('has the language itself (ES2022)', () => {
    expect(missingNames('fine.ts')).toEqual([]);
  });

  it('covers src/domain and nothing else', () => {
    const root = resolve(import.meta.dirname, '../..');
    expect(domainFiles.length).toBeGreaterThan(0);
    expect(domainFiles.every((file) => resolve(file).startsWith(join(root, 'src/domain/')))).toBe(true);
  });
});
