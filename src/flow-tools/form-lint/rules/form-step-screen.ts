import { formStepOf } from '../../../domain/forms/format';
import { GENERIC_FORM_SCREEN } from '../../../domain/flow/vocabulary';
import type { CatalogueRule } from '../rule';
import { askedForms } from '../context';

export const formStepScreen: CatalogueRule = {
  name: 'form-step-screen',
  description: 'A page of the generic form screen asks forms that say where they are posted (x-step): the screen has no other way to store them.',
  stage: 'catalogue',
  check(context, report) {
    for (const { flow, page, name, form, pointer } of askedForms(context)) {
      if (page.screen === GENERIC_FORM_SCREEN && form && formStepOf(form.schema) === undefined) {
        report(flow, pointer, `screen "${GENERIC_FORM_SCREEN}" needs a form with "x-step" (where it is posted), but schemas/${name}.schema.json has none`);
      }
    }
  },
};
