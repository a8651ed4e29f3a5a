import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { flowDiagram } from '../../src/flow-tools/diagram';

const root = fileURLToPath(new URL('../../', import.meta.url));
const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/flows-diagram.ts', ...args], { cwd: root, env: { ...process.env, ...env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? -1, stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
  );

describe('npm run flows:diagram', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flows-diagram-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes <flow>.mmd and <flow>.svg for every flow into --out, from the flow JSON', async () => {
    const out = join(dir, 'out');
    const result = await run(['--out', out]);
    expect(result.stderr).not.toMatch(/problem/);
    expect(result.code).toBe(0);
    for (const name of ['general', 'child']) {
      const expected = flowDiagram(JSON.parse(readFileSync(join(root, 'flows', `${name}.json`), 'utf8')) as Record<string, unknown>);
      expect(readFileSync(join(out, `${name}.mmd`), 'utf8')).toBe(expected.mermaid);
      expect(readFileSync(join(out, `${name}.svg`), 'utf8')).toBe(expected.svg);
      expect(result.stdout).toContain(`${name}: ${join(out, `${name}.mmd`)}, ${join(out, `${name}.svg`)}`);
    }
  });

  it('draws nothing for a broken flow and names the mistake as the lint does', async () => {
    const broken = join(dir, 'general.json');
    writeFileSync(broken, readFileSync(join(root, 'flows', 'general.json'), 'utf8').replace('"NEXT": "sealLess"', '"NEXT": "sealless"'));
    const out = join(dir, 'none');
    const result = await run([`--out=${out}`, broken]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`${broken}:\\d+ /states/branch/on/NEXT: transition target "sealless" does not exist`));
    expect(result.stderr).toContain('no diagram written');
    expect(existsSync(out)).toBe(false);
  });
});
