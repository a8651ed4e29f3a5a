/** The form lint's rule option-fields: src/flow-tools/form-lint/rules/option-fields.ts. */
import { describe, it } from 'vitest';
import { expectProblems, form, lint } from './helpers';

describe('option-fields', () => {
  it('takes a text, a whole number or a list of texts filled from bank data', () => {
    const fields = form((schema) => {
      schema.properties.branch = { type: ['string', 'null'], title: '店', 'x-options': { source: 'branches', labelAs: 'branchName' } };
      schema.properties.job = { type: 'integer', title: '職業', 'x-options': { source: 'occupations' } };
    });
    expectProblems(lint({ forms: { sample: fields } }), []);
  });

  it('refuses a yes/no filled from bank data: the data are codes and ids', () => {
    const yesNo = form((schema) => (schema.properties.branch = { type: 'boolean', title: '店', 'x-options': { source: 'branches' } }));
    expectProblems(lint({ forms: { sample: yesNo } }), [/\/properties\/branch\/type: a field filled from data \(x-options\) must be "type": "string" or "integer" \(or either with "null"\), or an "array" of strings$/]);
  });
});
