/** The form lint's rule condition-values: src/flow-tools/form-lint/rules/condition-values.ts. */
import { describe, it } from 'vitest';
import { expectProblems, form, lint } from './helpers';

describe('condition-values', () => {
  it('refuses a value that is not among the options, with them and a suggestion', () => {
    const typo = form((schema) => (schema.properties.detail['x-when'] = { field: 'kind', oneOf: ['A', 'b'] }));
    expectProblems(lint({ forms: { sample: typo } }), [/\/properties\/detail\/x-when\/oneOf\/1: "b" is not a value "kind" can take, so this test never changes \(its values: "A", "B", "C"\)\. Did you mean ""B""\?|\/oneOf\/1: "b" is not a value "kind" can take/]);
  });

  it('knows the values of a yes/no and of bank data known without a database (the banks\' purposes)', () => {
    const yesNo = form((schema) => {
      schema.properties.agree = { type: 'boolean', title: '同意' };
      schema['x-ui']['ui:order'].push('agree');
      schema.properties.detail['x-when'] = { any: [{ field: 'agree', equals: 'yes' }, { field: 'purposes', includes: 'OTHR' }, { field: 'purposes', includes: 'OTHER' }] };
    });
    expectProblems(lint({ forms: { sample: yesNo } }), [
      /\/x-when\/any\/0\/equals: "yes" is not a value "agree" can take, so this test never changes \(its values: true, false\)/,
      /\/x-when\/any\/1\/includes: "OTHR" is not a value "purposes" can take, so this test never changes \(its values: "LIVING", "OTHER"\)/,
    ]);
  });

  it('wants "includes" for a field of several choices, and only for one', () => {
    const wrongTest = form((schema) => (schema.properties.detail['x-when'] = { any: [{ field: 'purposes', equals: 'OTHER' }, { field: 'kind', includes: 'A' }] }));
    expectProblems(lint({ forms: { sample: wrongTest } }), [
      /\/x-when\/any\/0: "purposes" holds several choices: test one of them with "includes"$/,
      /\/x-when\/any\/1\/includes: "includes" tests a field of several choices, but "kind" holds one answer: write "equals" or "oneOf"$/,
    ]);
  });
});
