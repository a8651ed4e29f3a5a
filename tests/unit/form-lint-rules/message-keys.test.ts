/** The form lint's rule message-keys: src/flow-tools/form-lint/rules/message-keys.ts. */
import { describe, it } from 'vitest';
import { expectProblems, form, lint } from './helpers';

describe('message-keys', () => {
  it('takes the catalogue\'s keys, a template with its number and the form\'s own keys', () => {
    const named = form((schema) => {
      schema.properties.detail.errorMessage = { maxLength: 'tooLong:30' };
      schema.errorMessage = { required: { kind: 'selectRequired', detail: 'detailRequired' } };
      schema['x-messages'] = { detailRequired: '詳細を入力してください。' };
    });
    expectProblems(lint({ forms: { sample: named } }), []);
  });

  it('refuses an unknown key with the known ones and a suggestion, and a template without its number', () => {
    const typos = form((schema) => {
      schema.properties.detail.errorMessage = { maxLength: 'tooLong' };
      schema.errorMessage = { required: { kind: 'selectRequird', detail: 'detailRequird' } };
      schema['x-messages'] = { detailRequired: '詳細を入力してください。' };
    });
    expectProblems(lint({ forms: { sample: typos } }), [
      /\/properties\/detail\/errorMessage\/maxLength: message "tooLong" needs a whole number, as in "tooLong:20"$/,
      /\/errorMessage\/required\/kind: unknown message "selectRequird" \(known messages: .*tooLong:N.*\)\. Did you mean "selectRequired"\?$/,
      /\/errorMessage\/required\/detail: unknown message "detailRequird" \(known messages: .*\)\. Did you mean "detailRequired"\?$/,
    ]);
  });
});
