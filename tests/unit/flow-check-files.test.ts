import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFlowFiles, repositoryRoot } from '../../src/server/flows/check';

/** The file-level check the build, the server and `npm run flows:check` use (FLOWS_DIR copies included). */
describe('checkFlowFiles on a flow folder', () => {
  it('passes the shipped folder and returns both flows for the pages', () => {
    const result = checkFlowFiles();
    expect(result.problems).toEqual([]);
    expect(result.flows.map((flow) => flow.id).sort()).toEqual(['child', 'general']);
  });

  it('refuses a form without a schema in schemas/ (no warning that lets it through)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'flows-copy-'));
    cpSync(join(repositoryRoot, 'flows'), dir, { recursive: true });
    const file = join(dir, 'general.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"form": "branch"', '"form": "branches"'));
    const result = checkFlowFiles([], repositoryRoot, dir);
    expect(result.flows).toEqual([]);
    expect(result.problems.map((p) => `${p.pointer} ${p.message}`)).toEqual([
      expect.stringMatching(/^\/states\/branch\/meta\/form unknown form "branches" .*Did you mean "branch"\?$/),
    ]);
  });
});
