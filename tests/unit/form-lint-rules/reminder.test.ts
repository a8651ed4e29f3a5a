/** The form lint's rule reminder: src/flow-tools/form-lint/rules/reminder.ts. */
import { describe, it } from 'vitest';
import { expectProblems, form, lint } from './helpers';

describe('reminder', () => {
  it('takes a catalogue message and fields of the form', () => {
    expectProblems(lint({ forms: { sample: form((schema) => (schema['x-step'].reminder = { message: 'workplaceOrInvitationReminder', unlessAnswered: ['detail'] })) } }), []);
  });

  it('refuses an unknown message key and a field the form lacks, with suggestions', () => {
    const wrong = form((schema) => (schema['x-step'].reminder = { message: 'workplaceOrInvitationRemindr', unlessAnswered: ['detial'] }));
    expectProblems(lint({ forms: { sample: wrong } }), [
      /\/x-step\/reminder\/message: unknown message key "workplaceOrInvitationRemindr" .*Did you mean "workplaceOrInvitationReminder"\?$/,
      /\/x-step\/reminder\/unlessAnswered\/0: unknown field "detial" \(known fields, this form: kind, detail, purposes\)\. Did you mean "detail"\?$/,
    ]);
  });
});
