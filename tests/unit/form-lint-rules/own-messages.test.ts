/** The form lint's rule own-messages: src/flow-tools/form-lint/rules/own-messages.ts. */
import { describe, it } from 'vitest';
import { expectProblems, form, lineOf, lint } from './helpers';

describe('own-messages', () => {
  it('refuses an own message the catalogue already has, naming its key', () => {
    const copied = form((schema) => {
      schema['x-messages'] = { kindRequired: '選択が必須です。' };
      schema.errorMessage = { required: { kind: 'kindRequired' } };
    });
    expectProblems(lint({ forms: { sample: copied } }), [
      `schemas/sample.schema.json:${lineOf(copied, 'kindRequired')} /x-messages/kindRequired: message "kindRequired" repeats the catalogue's "selectRequired"; name "selectRequired" instead`,
    ]);
  });
});
