/** The form lint's rule summary-rows: src/flow-tools/form-lint/rules/summary-rows.ts. */
import { describe, it } from 'vitest';
import { expectProblems, form, lint } from './helpers';

describe('summary-rows', () => {
  it('takes the form\'s fields, its labels, what it derives and the application\'s columns', () => {
    const rows = form((schema) => {
      schema.properties.branch = { type: 'string', title: '店', 'x-options': { source: 'branches', labelAs: 'branchName' } };
      schema['x-step'].derive = ['eraBirthday'];
      schema['x-step'].summary = [{ term: '店', fields: ['branchName', 'eraBirthday', 'mailAddress'], detail: { field: 'detail' } }];
    });
    expectProblems(lint({ forms: { sample: rows } }), []);
  });

  it('refuses a name the form neither asks nor stores, and a detail of no field', () => {
    const rows = form((schema) => (schema['x-step'].summary = [{ term: '種類', fields: ['knd'], detail: { field: 'detial' } }]));
    expectProblems(lint({ forms: { sample: rows } }), [
      /\/x-step\/summary\/0\/fields\/0: the row "種類" shows "knd", which this form neither asks nor stores \(names it has: .*\)\. Did you mean "kind"\?$/,
      /\/x-step\/summary\/0\/detail\/field: the detail "detial" is not a field of this form \(fields: kind, detail, purposes\)\. Did you mean "detail"\?$/,
    ]);
  });
});
