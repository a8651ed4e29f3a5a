import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFlowFiles, repositoryRoot } from '../../src/server/flows/check';
import { NEW_FORM, NEW_STEP, writeFoldersWithNewStep } from '../model/new-step';

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

  /** A copy of flows/ and schemas/ with one schema edited; the problems of checking it. */
  function checkEditedSchema(form: string, edit: (schema: Record<string, unknown>) => void) {
    const root = mkdtempSync(join(tmpdir(), 'flows-root-'));
    cpSync(join(repositoryRoot, 'flows'), join(root, 'flows'), { recursive: true });
    cpSync(join(repositoryRoot, 'schemas'), join(root, 'schemas'), { recursive: true });
    const file = join(root, 'schemas', `${form}.schema.json`);
    const schema = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    edit(schema);
    writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
    const result = checkFlowFiles([], root, join(root, 'flows'));
    rmSync(root, { recursive: true, force: true });
    expect(result.flows).toEqual([]);
    return result.problems.map((p) => `${p.file.replace(/^.*schemas\//, '')}:${p.line} ${p.pointer} ${p.message}`);
  }

  const step = (schema: Record<string, unknown>) => schema['x-step'] as Record<string, unknown>;

  it('refuses a form step naming an unknown rule, with the known ones and a suggestion', () => {
    const problems = checkEditedSchema('branch', (schema) => (step(schema).rules = ['homePhon']));
    expect(problems).toEqual([expect.stringMatching(/^branch\.schema\.json:\d+ \/x-step\/rules\/0 unknown rule "homePhon" \(known rules, .*parentSurnameMatchesChild.*\)\. Did you mean "homePhone"\?$/)]);
  });

  it('refuses an unknown normaliser, derivation or condition, an x-when on a field the form lacks, and a summary row of the wrong shape', () => {
    const problems = checkEditedSchema('personal', (schema) => {
      const fields = schema.properties as Record<string, Record<string, unknown>>;
      (fields.kanaLastName as Record<string, unknown>)['x-normalize'] = 'kanaNam';
      (fields.distanceTransactionReason as Record<string, unknown>)['x-when'] = { condition: 'distanceReasonAskd' };
      (fields.tempAddress as Record<string, unknown>)['x-when'] = { field: 'noMatchingAdress', is: true };
      (fields.subAddress as Record<string, unknown>)['x-when'] = { field: 'noMatchingAddress' };
      step(schema).derive = ['postalAdress'];
      (step(schema).summary as unknown[]).push({ term: '性別', field: 'gender' });
    });
    expect(problems).toEqual([
      expect.stringMatching(/^personal\.schema\.json:\d+ \/x-step\/derive\/0 unknown derivation "postalAdress" \(known derivations, src\/server\/forms\/derivations\.ts: postalAddress, eraBirthday, workplaceMaster, invitation\)\. Did you mean "postalAddress"\?$/),
      expect.stringMatching(/^personal\.schema\.json:\d+ \/properties\/kanaLastName\/x-normalize unknown normaliser "kanaNam" .*Did you mean "kanaName"\?$/),
      expect.stringMatching(/^personal\.schema\.json:\d+ \/properties\/tempAddress\/x-when\/field unknown field "noMatchingAdress" \(known fields, this form: .*\)\. Did you mean "noMatchingAddress"\?$/),
      expect.stringMatching(/^personal\.schema\.json:\d+ \/properties\/distanceTransactionReason\/x-when\/condition unknown condition "distanceReasonAskd" .*Did you mean "distanceReasonAsked"\?$/),
      expect.stringMatching(/^personal\.schema\.json:\d+ \/x-step\/summary\/16 "fields" is required here$/),
      expect.stringMatching(/^personal\.schema\.json:\d+ \/x-step\/summary\/16 unknown key "field" here$/),
      expect.stringMatching(/^personal\.schema\.json:\d+ \/properties\/subAddress\/x-when "x-when" must be \{ "field": <a field>, and one of "is", "isNot", "includes": <a value> \}, \{ "condition": <a condition name> \} or \{ "for": "GENERAL" \| "CHILD" \}$/),
    ]);
  });

  it('refuses an unknown option source, a post path that is not one, and two forms on one path', () => {
    const problems = checkEditedSchema('sealLess', (schema) => {
      step(schema).post = '/applications/branch';
      ((schema.properties as Record<string, Record<string, unknown>>).sealLess as Record<string, unknown>)['x-options'] = { source: 'branchs' };
    });
    expect(problems).toEqual([
      expect.stringMatching(/^sealLess\.schema\.json:\d+ \/properties\/sealLess\/x-options\/source unknown option source "branchs" \(known option sources, src\/domain\/schemas\/form-step\.ts: branches, purposes, prefectures, occupations, adultOccupations\)\. Did you mean "branches"\?$/),
      expect.stringMatching(/^sealLess\.schema\.json:\d+ \/properties\/sealLess\/type a field filled from data \(x-options\) must be "type": "string" or "integer" \(or either with "null"\), or an "array" of strings$/),
      expect.stringMatching(/^sealLess\.schema\.json:\d+ \/x-step\/post "\/applications\/branch" is already the path of form "branch"; give this form its own path$/),
    ]);
    expect(checkEditedSchema('sealLess', (schema) => (step(schema).post = 'applications/seal less'))).toEqual([
      expect.stringMatching(/\/x-step\/post "post" must be the API path the form is posted to/),
    ]);
  });

  it('refuses a ui:options condition the registry does not know (requiredWhen, readonlyWhen)', () => {
    const problems = checkEditedSchema('parent-workplace', (schema) => {
      const ui = schema['x-ui'] as Record<string, { 'ui:options': Record<string, unknown> }>;
      ui.workplaceName!['ui:options'].requiredWhen = 'workplaceRequird';
      ui.workplacePhoneNumber!['ui:options'].readonlyWhen = 'codeApplied';
    });
    expect(problems).toEqual([
      expect.stringMatching(/^parent-workplace\.schema\.json:\d+ \/x-ui\/workplaceName\/ui:options\/requiredWhen unknown condition "workplaceRequird" .*Did you mean "workplaceRequired"\?$/),
      expect.stringMatching(/^parent-workplace\.schema\.json:\d+ \/x-ui\/workplacePhoneNumber\/ui:options\/readonlyWhen unknown condition "codeApplied" \(known conditions, src\/domain\/rules\/registry\.ts: /),
    ]);
  });

  it('resolves a form’s own message keys, and refuses one that repeats the catalogue', () => {
    const ownKey = (schema: Record<string, unknown>, text: string) => {
      schema['x-messages'] = { branchMissing: text };
      (schema.errorMessage as { required: Record<string, string> }).required.branchCode = 'branchMissing';
    };
    expect(checkEditedSchema('branch', (schema) => ownKey(schema, '選択が必須です。'))).toEqual([
      expect.stringMatching(/^branch\.schema\.json:\d+ \/x-messages\/branchMissing message "branchMissing" repeats the catalogue's "selectRequired"; name "selectRequired" instead$/),
    ]);
    const root = mkdtempSync(join(tmpdir(), 'flows-root-'));
    cpSync(join(repositoryRoot, 'flows'), join(root, 'flows'), { recursive: true });
    cpSync(join(repositoryRoot, 'schemas'), join(root, 'schemas'), { recursive: true });
    const file = join(root, 'schemas', 'branch.schema.json');
    const schema = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    ownKey(schema, 'お取引店をお選びください。');
    writeFileSync(file, JSON.stringify(schema));
    expect(checkFlowFiles([], root, join(root, 'flows')).problems).toEqual([]);
    rmSync(root, { recursive: true, force: true });
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

  it('compares the fields of a form stored into the parent\'s record with that record\'s forms only, and wants the forms it comes after asked before it', () => {
    // The shipped parent form shares lastName with the child's personal form: another record.
    const problems = checkEditedSchema('parent-workplace', (schema) => {
      (schema.properties as Record<string, unknown>).lastName = { type: 'string', title: 'お名前（姓）' };
      step(schema).after = ['parent', 'branch'];
    });
    expect(problems).toEqual([
      expect.stringMatching(/child\.json:\d+ \/states\/parent\/meta\/form\/1 form "parent-workplace" comes after form "branch" \(x-step\.after\), which this flow does not ask before it/),
      expect.stringMatching(/child\.json:\d+ \/states\/parent\/meta\/form\/1 form "parent-workplace" has a field "lastName", which form "parent" of this flow has too; rename one/),
    ]);
    expect(checkEditedSchema('parent', (schema) => void (step(schema).storedAs = 'parent'))).toEqual([
      expect.stringMatching(/^parent\.schema\.json:\d+ \/x-step\/storedAs must be one of "applicationParent"$/),
    ]);
  });

  it('refuses a form step after the PIN page, which nothing could store', () => {
    const root = mkdtempSync(join(tmpdir(), 'flows-root-'));
    const { flowsDir, schemasDir } = writeFoldersWithNewStep(root, (flow) => flow, 'pin');
    const result = checkFlowFiles([], repositoryRoot, flowsDir, schemasDir);
    rmSync(root, { recursive: true, force: true });
    expect(result.problems.map((p) => `${p.pointer} ${p.message}`)).toContain(
      `/states/${NEW_STEP.state}/meta/form form "${NEW_FORM}" comes after the PIN page, when what was entered can no longer change; move the page before the PIN`,
    );
  });

  it('refuses keywords of the wrong shape, an $id that is not the file name and an order rjsf cannot draw', () => {
    const problems = checkEditedSchema('branch', (schema) => {
      schema.$id = 'other.schema.json';
      step(schema).notes = { CHILD: 1 };
      step(schema).intro = '';
      schema['x-ui'] = { ...(schema['x-ui'] as object), 'ui:order': ['*', '*'] };
    });
    expect(problems).toEqual([
      expect.stringMatching(/ \/x-ui\/ui:order "ui:order" may hold "\*" \(every other field\) once only$/),
      expect.stringMatching(/ \/x-step\/intro must not be empty$/),
      expect.stringMatching(/ \/x-step\/notes\/CHILD must be string$/),
      expect.stringMatching(/ \/\$id "\$id" must be the file name "branch\.schema\.json" \(forms are found by it\), not "other\.schema\.json"$/),
    ]);
    expect(checkEditedSchema('sealLess', (schema) => (schema['x-ui'] = { 'ui:order': [] }))).toEqual([
      expect.stringMatching(/ \/x-ui\/ui:order "ui:order" leaves out "sealLess": name every field, or add "\*" for the rest$/),
    ]);
    expect(
      checkEditedSchema('sealLess', (schema) => {
        ((schema.properties as Record<string, Record<string, unknown>>).sealLess as Record<string, unknown>)['x-options'] = { source: 'branches', labelAs: 'sealLessName' };
      }),
    ).toEqual([expect.stringMatching(/ \/properties\/sealLess\/type a field filled from data \(x-options\) must be "type": "string" or "integer" \(or either with "null"\), or an "array" of strings$/)]);
  });

  it('refuses a schema the server’s strict ajv would refuse, before the server starts', () => {
    const problems = checkEditedSchema('sealLess', (schema) => {
      (schema.properties as Record<string, Record<string, unknown>>).sealLess = { type: 'boolean', maxLenght: 3 };
    });
    expect(problems).toEqual([expect.stringMatching(/^sealLess\.schema\.json:1  the schema is not valid JSON Schema for the server \(ajv, strict\): .*maxLenght/)]);
  });
});
