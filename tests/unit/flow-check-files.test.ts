import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFlowFiles, repositoryRoot } from '../../src/server/flows/check';
import { writeFoldersWithNewStep } from '../model/new-step';

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

  it('reports a mistake in a form with the form file, its line and a suggestion (the form lint, src/flow-tools/form-lint)', () => {
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
        pointer: expect.stringMatching(/\/errorMessage/),
        message: expect.stringMatching(/^unknown message "selectRequird" \(known messages: .*tooLong:N.*\)\. Did you mean "selectRequired"\?$/),
      },
    ]);
  });

  it('refuses the generic screen on a form without x-step, and a field name two forms of a flow share', () => {
    const root = mkdtempSync(join(tmpdir(), 'flows-root-'));
    cpSync(join(repositoryRoot, 'flows'), join(root, 'flows'), { recursive: true });
    cpSync(join(repositoryRoot, 'schemas'), join(root, 'schemas'), { recursive: true });
    const flowFile = join(root, 'flows', 'general.json');
    writeFileSync(flowFile, readFileSync(flowFile, 'utf8').replace('"screen": "Confirmation"', '"screen": "FormStep"'));
    const sealFile = join(root, 'schemas', 'sealLess.schema.json');
    const seal = JSON.parse(readFileSync(sealFile, 'utf8')) as { properties: Record<string, unknown> };
    seal.properties.branchCode = { type: 'string', title: '店番' };
    writeFileSync(sealFile, JSON.stringify(seal, null, 2));
    const result = checkFlowFiles([], root, join(root, 'flows'));
    rmSync(root, { recursive: true, force: true });
    expect(result.flows).toEqual([]);
    expect(result.problems.map((p) => `${p.file.replace(/^.*flows\//, '')}:${p.line} ${p.pointer} ${p.message}`)).toEqual([
      expect.stringMatching(/^general\.json:\d+ \/states\/sealLess\/meta\/form form "sealLess" has a field "branchCode", which form "branch" of this flow has too; rename one/),
      expect.stringMatching(/^general\.json:\d+ \/states\/confirmation\/meta\/form screen "FormStep" needs a form with "x-step" \(where it is posted\), but schemas\/confirmation\.schema\.json has none$/),
    ]);
  });

  it('refuses a form step after the PIN page, which nothing could store', () => {
    const root = mkdtempSync(join(tmpdir(), 'flows-root-'));
    // Forms of names the shipped folders cannot have.
    const { flowsDir, schemasDir, steps } = writeFoldersWithNewStep(root, (flow) => flow, 'pin', 'AfterPin');
    const result = checkFlowFiles([], repositoryRoot, flowsDir, schemasDir);
    rmSync(root, { recursive: true, force: true });
    const messages = result.problems.map((p) => `${p.pointer} ${p.message}`);
    for (const { state, form } of steps) {
      expect(messages).toContain(`/states/${state}/meta/form form "${form}" comes after the PIN page, when what was entered can no longer change; move the page before the PIN`);
    }
  });

});
