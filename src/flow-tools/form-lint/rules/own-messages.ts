import { localMessageProblems } from '../../../domain/schemas/messages';
import type { FormRule } from '../rule';

export const ownMessages: FormRule = {
  name: 'own-messages',
  description: 'A form\'s own messages (x-messages) are texts the catalogue does not already have: a wording the catalogue has is named by its key, so a rewording reaches every form.',
  stage: 'form',
  check(form, _context, report) {
    for (const problem of localMessageProblems(form.schema)) report(form, problem.pointer, problem.message);
  },
};
