/** The form lint's rule file-id: src/flow-tools/form-lint/rules/file-id.ts. */
import { describe, it } from 'vitest';
import { expectProblems, form, lineOf, lint } from './helpers';

describe('file-id', () => {
  it('takes an $id that is the file name, or none', () => {
    expectProblems(lint({ forms: { sample: form((schema) => (schema.$id = 'sample.schema.json')) } }), []);
  });

  it('refuses another $id: forms are found by their file name', () => {
    const other = form((schema) => (schema.$id = 'other.schema.json'));
    expectProblems(lint({ forms: { sample: other } }), [
      `schemas/sample.schema.json:${lineOf(other, '$id')} /$id: "$id" must be the file name "sample.schema.json" (forms are found by it), not "other.schema.json"`,
    ]);
  });
});
