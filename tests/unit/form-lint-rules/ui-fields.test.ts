/** The form lint's rule ui-fields: src/flow-tools/form-lint/rules/ui-fields.ts. */
import { describe, it } from 'vitest';
import { expectProblems, form, lint } from './helpers';

describe('ui-fields', () => {
  it('refuses an x-ui entry of no field, with a suggestion', () => {
    expectProblems(lint({ forms: { sample: form((schema) => (schema['x-ui'].detial = { 'ui:title': '詳細' })) } }), [
      /\/x-ui\/detial: x-ui describes "detial", which is not a field of this form \(fields: kind, detail, purposes\)\. Did you mean "detail"\?$/,
    ]);
  });

  it('refuses an option the field\'s widget does not read, and a widget without an option it needs', () => {
    const options = form((schema) => {
      schema['x-ui'].detail = { 'ui:options': { birthdayKind: 'child' } };
      schema['x-ui'].kind = { 'ui:widget': 'CodeApplyWidget' };
    });
    expectProblems(lint({ forms: { sample: options } }), [
      /\/x-ui\/detail\/ui:options\/birthdayKind: "birthdayKind" is read by BirthdayWidget, not by the field's default control: it would do nothing here$/,
      /\/x-ui\/kind: CodeApplyWidget needs "ui:options": \{ "code": … \}/,
    ]);
  });

  it('refuses an option naming a field the form lacks, in the form and in an overlay', () => {
    const named = form((schema) => {
      schema['x-ui'].purposes = { 'ui:options': { errorsAt: 'knd' } };
      schema['x-flows'] = { general: { 'x-ui': { detail: { 'ui:options': { errorsAt: 'kinds' } } } } };
    });
    expectProblems(lint({ forms: { sample: named } }), [
      /\/x-ui\/purposes\/ui:options\/errorsAt: "errorsAt" names "knd", which is not a field of this form .*Did you mean "kind"\?$/,
      /\/x-flows\/general\/x-ui\/detail\/ui:options\/errorsAt: "errorsAt" names "kinds", which is not a field of this form .*Did you mean "kind"\?$/,
    ]);
  });
});
