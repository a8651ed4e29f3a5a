/** The form lint's rule form-format: src/flow-tools/form-lint/rules/form-format.ts. */
import { describe, it } from 'vitest';
import { expectProblems, form, lineOf, lint } from './helpers';

describe('form-format', () => {
  it('names an unknown keyword of a field, with the allowed ones and a "Did you mean"', () => {
    const typo = form((schema) => (schema.properties.detail.maxLenght = 30));
    expectProblems(lint({ forms: { sample: typo } }), [
      new RegExp(`^schemas/sample\\.schema\\.json:${lineOf(typo, 'maxLenght')} /properties/detail/maxLenght: unknown key "maxLenght" \\(allowed keys here: type, title, .*\\)\\. Did you mean "maxLength"\\?$`),
    ]);
  });

  it('names an unknown widget and an unknown ui:options key, with the known ones', () => {
    const ui = form((schema) => {
      schema['x-ui'].kind = { 'ui:widget': 'RadioCardWidget', 'ui:options': { colums: 1 } };
    });
    expectProblems(lint({ forms: { sample: ui } }), [
      new RegExp(`:${lineOf(ui, 'ui:widget')} /x-ui/kind/ui:widget: "ui:widget" cannot be "RadioCardWidget" \\(allowed: BirthdayWidget, .*\\)\\. Did you mean "RadioCardsWidget"\\?$`),
      new RegExp(`:${lineOf(ui, 'colums')} /x-ui/kind/ui:options/colums: unknown key "colums" \\(allowed keys here: group, .*\\)\\. Did you mean "columns"\\?$`),
    ]);
  });

  it('names an unknown rule, normaliser or option source', () => {
    const names = form((schema) => {
      schema['x-step'].rules = ['homePhon'];
      schema.properties.detail['x-normalize'] = 'kanaNam';
      schema.properties.purposes['x-options'].source = 'purpose';
    });
    expectProblems(lint({ forms: { sample: names } }), [
      /\/properties\/detail\/x-normalize: "x-normalize" cannot be "kanaNam" \(allowed: kanaName, .*\)\. Did you mean "kanaName"\?$/,
      /\/properties\/purposes\/x-options\/source: "source" cannot be "purpose" \(allowed: branches, purposes, .*\)\. Did you mean "purposes"\?$/,
      /\/x-step\/rules\/0: "0" cannot be "homePhon" \(allowed: personNames, .*\)\. Did you mean "homePhone"\?$/,
    ]);
  });

  it('refuses JSON Schema\'s own conditionals, pointing to x-when', () => {
    const conditional = form((schema) => (schema.allOf = [{ if: { properties: { kind: { const: 'A' } } }, then: { required: ['detail'] } }]));
    expectProblems(lint({ forms: { sample: conditional } }), [
      new RegExp(`:${lineOf(conditional, 'allOf')} /allOf: "allOf": Not part of the form format \\(version 2\\): say when a field is asked with its "x-when"`),
    ]);
  });

  it('leaves a condition to condition-shape, and the version to format-version', () => {
    const broken = form((schema) => (schema.properties.detail['x-when'] = { field: 'kind', is: 'A' }));
    expectProblems(lint({ forms: { sample: broken } }), [/\/properties\/detail\/x-when: a "field" condition makes exactly one test/, /\/properties\/detail\/x-when\/is: unknown key "is" in a "field" condition/]);
  });
});
