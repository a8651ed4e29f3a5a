import { UI_KEYWORD, uiSchemaOf } from '../../../domain/forms/format';
import type { FormRule } from '../rule';

export const uiOrder: FormRule = {
  name: 'ui-order',
  description: 'x-ui\'s "ui:order" names fields of the form, each once, and every field or "*" for the rest (rjsf refuses to draw a form otherwise).',
  stage: 'form',
  check(form, _context, report) {
    const order = uiSchemaOf(form.schema)['ui:order'];
    if (!Array.isArray(order)) return;
    const fields = Object.keys(form.schema.properties ?? {});
    order.forEach((name, index) => {
      if (name !== '*' && (typeof name !== 'string' || !fields.includes(name))) report(form, `/${UI_KEYWORD}/ui:order/${index}`, `"ui:order" names "${String(name)}", which is not a field of this form`);
      else if (name !== '*' && order.indexOf(name) !== index) report(form, `/${UI_KEYWORD}/ui:order/${index}`, `"ui:order" names "${String(name)}" twice`);
    });
    const stars = order.filter((name) => name === '*').length;
    const left = fields.filter((field) => !order.includes(field));
    if (stars > 1) report(form, `/${UI_KEYWORD}/ui:order`, '"ui:order" may hold "*" (every other field) once only');
    if (stars === 0 && left.length > 0) report(form, `/${UI_KEYWORD}/ui:order`, `"ui:order" leaves out ${left.map((field) => `"${field}"`).join(', ')}: name every field, or add "*" for the rest`);
  },
};
