import { formStepOf } from '../../../domain/forms/format';
import { formsBefore } from '../context';
import type { CatalogueRule } from '../rule';
import { pagePointer } from '../context';

export const formsAfterOrder: CatalogueRule = {
  name: 'forms-after-order',
  description: 'The forms a form comes after (x-step.after) are asked before it in every flow that asks it: the server refuses it until they are stored.',
  stage: 'catalogue',
  check({ flows, forms }, report) {
    for (const flow of flows ?? []) {
      for (const page of flow.pages) {
        page.forms.forEach((name, index) => {
          const form = forms.find((file) => file.name === name);
          const before = formsBefore(flow, name) ?? [];
          for (const earlier of (form && formStepOf(form.schema)?.after) ?? []) {
            if (!before.includes(earlier)) {
              report(flow, pagePointer(page, index), `form "${name}" comes after form "${earlier}" (x-step.after), which this flow does not ask before it; ask it on an earlier page, or drop it from "after"`);
            }
          }
        });
      }
    }
  },
};
