import { LOCAL_MESSAGES_KEYWORD, isRecord } from '../../../domain/forms/format';
import { messageKeys, messageProblems } from '../../../domain/schemas/messages';
import { suggestion } from '../../lint/words';
import type { FormRule } from '../rule';

export const messageKeysRule: FormRule = {
  name: 'message-keys',
  description: 'Every errorMessage names a message of the catalogue (src/domain/messages.ts) or of the form\'s own x-messages, by key, with the argument a template needs.',
  stage: 'form',
  check(form, _context, report) {
    const own = form.schema[LOCAL_MESSAGES_KEYWORD];
    const names = [...messageKeys.map((key) => key.replace(/:N$/, '')), ...(isRecord(own) ? Object.keys(own) : [])];
    for (const problem of messageProblems(form.schema)) {
      const hint = problem.message.startsWith('unknown message') ? ` (known messages: ${messageKeys.join(', ')}).${suggestion(problem.reference, names)}` : '';
      report(form, problem.pointer, `${problem.message}${hint}`);
    }
  },
};
