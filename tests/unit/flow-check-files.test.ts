import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

  it('refuses a form whose schema names a message the catalogue does not have, with file, line and a suggestion', () => {
    const root = mkdtempSync(join(tmpdir(), 'flows-root-'));
    cpSync(join(repositoryRoot, 'flows'), join(root, 'flows'), { recursive: true });
    cpSync(join(repositoryRoot, 'schemas'), join(root, 'schemas'), { recursive: true });
    const file = join(root, 'schemas', 'branch.schema.json');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('"selectRequired"', '"selectRequird"'));
    const line = text.slice(0, text.indexOf('"selectRequired"')).split('\n').length;
    const result = checkFlowFiles([], root, join(root, 'flows'));
    rmSync(root, { recursive: true, force: true });
    expect(result.flows).toEqual([]);
    expect(result.problems).toEqual([
      {
        file: expect.stringMatching(/schemas\/branch\.schema\.json$/),
        line,
        pointer: expect.stringMatching(/^\/properties\/branchCode\/errorMessage\//),
        message: expect.stringMatching(/^unknown message "selectRequird" \(known messages: .*tooLong:N.*\)\. Did you mean "selectRequired"\?$/),
      },
    ]);
  });
});
