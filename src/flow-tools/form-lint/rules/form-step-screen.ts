import { formStepOf } from '../../../domain/forms/format';
import { GENERIC_FORM_SCREEN } from '../../../domain/flow/vocabulary';
import type { CatalogueRule } from '../rule';
import { pagePointer } from '../context';

export const formStepScreen: CatalogueRule = {
  name: 'form-step-screen',
  description: 'A page of the generic form screen asks forms that say where they are posted (x-step): the screen has no other way to store them.',
  stage: 'catalogue',
  check({ flows, forms }, report) {
    for (const flow of flows ?? []) {
      for (const page of flow.pages) {
        if (page.screen !== GENERIC_FORM_SCREEN) continue;
        page.forms.forEach((name, index) => {
          const form = forms.find((file) => file.name === name);
          if (form && formStepOf(form.schema) === undefined) {
            report(flow, pagePointer(page, index), `screen "${GENERIC_FORM_SCREEN}" needs a form with "x-step" (where it is posted), but schemas/${name}.schema.json has none`);
          }
        });
      }
    }
  },
};
