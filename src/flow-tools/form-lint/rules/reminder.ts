import { FORM_STEP_KEYWORD, isRecord } from '../../../domain/forms/format';
import { textMessageKeys } from '../../../domain/schemas/messages';
import { withChoices } from '../../lint/words';
import type { FormRule } from '../rule';

export const reminder: FormRule = {
  name: 'reminder',
  description: 'An x-step.reminder names a message of the catalogue and fields of the form.',
  stage: 'form',
  check(form, _context, report) {
    const step = form.schema[FORM_STEP_KEYWORD];
    const declared = isRecord(step) && isRecord(step.reminder) ? step.reminder : undefined;
    if (!declared) return;
    const at = `/${FORM_STEP_KEYWORD}/reminder`;
    if (typeof declared.message === 'string' && !textMessageKeys.includes(declared.message)) {
      report(form, `${at}/message`, withChoices(`unknown message key "${declared.message}"`, declared.message, 'known message keys, src/domain/messages.ts', textMessageKeys));
    }
    const fields = Object.keys(form.schema.properties ?? {});
    if (Array.isArray(declared.unlessAnswered)) {
      declared.unlessAnswered.forEach((field, index) => {
        if (typeof field === 'string' && !fields.includes(field)) report(form, `${at}/unlessAnswered/${index}`, withChoices(`unknown field "${field}"`, field, 'known fields, this form', fields));
      });
    }
  },
};
