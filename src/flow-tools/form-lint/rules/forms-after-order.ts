import { formStepOf } from '../../../domain/forms/format';
import { askedForms, formsBefore } from '../context';
import type { CatalogueRule } from '../rule';

export const formsAfterOrder: CatalogueRule = {
  name: 'forms-after-order',
  description: 'The forms a form comes after (x-step.after) are asked before it in every flow that asks it: the server refuses it until they are stored.',
  stage: 'catalogue',
  check(context, report) {
    for (const { flow, name, form, pointer } of askedForms(context)) {
      const before = formsBefore(flow, name) ?? [];
      for (const earlier of (form && formStepOf(form.schema)?.after) ?? []) {
        if (!before.includes(earlier)) {
          report(flow, pointer, `form "${name}" comes after form "${earlier}" (x-step.after), which this flow does not ask before it; ask it on an earlier page, or drop it from "after"`);
        }
      }
    }
  },
};
