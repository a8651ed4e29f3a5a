/** The form lint's rule ui-order: src/flow-tools/form-lint/rules/ui-order.ts. */
import { describe, it } from 'vitest';
import { expectProblems, form, lint } from './helpers';

describe('ui-order', () => {
  it('takes every field, or "*" for the rest', () => {
    expectProblems(lint({ forms: { sample: form((schema) => (schema['x-ui']['ui:order'] = ['detail', '*'])) } }), []);
  });

  it('refuses an order rjsf cannot draw: a field left out, a name twice, two "*", a name of no field', () => {
    expectProblems(lint({ forms: { sample: form((schema) => (schema['x-ui']['ui:order'] = ['kind'])) } }), [/\/x-ui\/ui:order: "ui:order" leaves out "detail", "purposes": name every field, or add "\*" for the rest$/]);
    expectProblems(lint({ forms: { sample: form((schema) => (schema['x-ui']['ui:order'] = ['kind', 'kind', 'knd', '*', '*'])) } }), [
      /\/x-ui\/ui:order: "ui:order" may hold "\*" \(every other field\) once only$/,
      /\/x-ui\/ui:order\/1: "ui:order" names "kind" twice$/,
      /\/x-ui\/ui:order\/2: "ui:order" names "knd", which is not a field of this form$/,
    ]);
  });
});
