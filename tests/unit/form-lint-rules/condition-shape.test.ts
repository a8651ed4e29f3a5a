/** The form lint's rule condition-shape: src/flow-tools/form-lint/rules/condition-shape.ts. */
import { describe, it } from 'vitest';
import { expectProblems, form, lint } from './helpers';

describe('condition-shape', () => {
  it('passes every shape of the language', () => {
    const all = form((schema) => {
      schema.properties.detail['x-when'] = {
        all: [{ field: 'kind', oneOf: ['A'] }, { any: [{ bank: ['0177'] }, { not: { field: 'kind', answered: false } }, { condition: 'workplaceRequired' }, true] }],
      };
    });
    expectProblems(lint({ forms: { sample: all } }), []);
  });

  it('names an unknown key in a condition, with a suggestion', () => {
    const typo = form((schema) => (schema.properties.detail['x-when'] = { field: 'kind', oneof: ['A', 'B'] }));
    expectProblems(lint({ forms: { sample: typo } }), [
      /\/properties\/detail\/x-when: a "field" condition makes exactly one test \(equals, notEquals, oneOf, includes, answered\), not none$/,
      /\/properties\/detail\/x-when\/oneof: unknown key "oneof" in a "field" condition \(allowed keys here: field, equals, notEquals, oneOf, includes, answered\)\. Did you mean "oneOf"\?$/,
    ]);
  });

  it('names a named condition the registry does not have, and a bank that does not exist', () => {
    const names = form((schema) => (schema.properties.detail['x-when'] = { any: [{ condition: 'workplaceRequird' }, { bank: ['0178'] }] }));
    expectProblems(lint({ forms: { sample: names } }), [
      /\/x-when\/any\/0\/condition: unknown condition "workplaceRequird" \(known conditions, src\/domain\/rules\/registry\.ts: .*\)\. Did you mean "workplaceRequired"\?$/,
      /\/x-when\/any\/1\/bank\/0: unknown bank "0178" \(banks, banks\/<code>: 0177, 0587, 0181\)\. Did you mean "0177"\?$/,
    ]);
  });

  it('checks the conditions of an overlay too, and an empty list', () => {
    const overlay = form((schema) => (schema['x-flows'] = { general: { properties: { detail: { 'x-required-when': { all: [] } } } } }));
    expectProblems(lint({ forms: { sample: overlay } }), [/\/x-flows\/general\/properties\/detail\/x-required-when\/all: "all" is a list of conditions, at least one$/]);
  });
});
