/** The form lint's rule unique-field-names: src/flow-tools/form-lint/rules/unique-field-names.ts. */
import { describe, it } from 'vitest';
import { expectProblems, flowAsking, form, lint } from './helpers';

describe('unique-field-names', () => {
  it('refuses a field another form of the flow has, and one named like a column', () => {
    const again = form((schema) => ((schema.properties = { kind: { type: 'string', title: '再び' }, mailAddress: { type: 'string', title: 'メール' } }), (schema.required = []), (schema['x-ui'] = {})), '/applications/again');
    expectProblems(lint({ forms: { sample: form(), again }, flows: [flowAsking('general', [['sample'], ['again']])] }), [
      /\/states\/page1\/meta\/form: form "again" has a field "kind", which form "sample" of this flow has too; rename one/,
      /\/states\/page1\/meta\/form: form "again" has a field "mailAddress", which the stored application of this flow has too; rename one/,
    ]);
  });

  it('compares a form stored into another record with that record\'s forms only', () => {
    const parent = form((schema) => {
      schema['x-step'].storedAs = 'applicationParent';
      schema['x-step'].post = '/applications/parent';
    });
    expectProblems(lint({ forms: { sample: form(), parent }, flows: [flowAsking('general', [['sample'], ['parent']])] }), []);
  });
});
