/** The form lint's rule condition-fields: src/flow-tools/form-lint/rules/condition-fields.ts. */
import { describe, it } from 'vitest';
import { expectProblems, flowAsking, form, lint } from './helpers';

describe('condition-fields', () => {
  const earlier = form((schema) => {
    schema.properties = { answer: { type: 'string', title: '前の答え', oneOf: [{ const: 'Y' }, { const: 'N' }] } };
    schema.required = ['answer'];
    schema['x-ui'] = {};
  }, '/applications/earlier');
  const reading = (field: string) => form((schema) => (schema.properties.detail['x-when'] = { field, equals: 'Y' }));

  it('reads a field of a form the flow asks before, on an earlier page or earlier on the same page', () => {
    expectProblems(lint({ forms: { earlier, sample: reading('answer') }, flows: [flowAsking('general', [['earlier'], ['sample']])] }), []);
    expectProblems(lint({ forms: { earlier, sample: reading('answer') }, flows: [flowAsking('general', [['earlier', 'sample']])] }), []);
  });

  it('refuses a field of a form the flow asks only later, naming the flow', () => {
    expectProblems(lint({ forms: { earlier, sample: reading('answer') }, flows: [flowAsking('general', [['sample'], ['earlier']])] }), [
      /\/properties\/detail\/x-when\/field: field "answer" of form "earlier", which flow "general" does not ask before this form: an applicant would not have answered it yet/,
    ]);
  });

  it('refuses an unknown field with a suggestion, and a field deciding about itself', () => {
    expectProblems(lint({ forms: { sample: reading('knd') } }), [/\/properties\/detail\/x-when\/field: unknown field "knd" \(fields of this form: kind, detail, purposes\)\. Did you mean "kind"\?$/]);
    expectProblems(lint({ forms: { sample: reading('detail') } }), [/\/properties\/detail\/x-when\/field: the x-when of "detail" reads "detail" itself/]);
  });

  it('refuses fields whose x-when read each other round a circle', () => {
    const circle = form((schema) => {
      schema.properties.kind['x-when'] = { field: 'detail', answered: true };
    });
    expectProblems(lint({ forms: { sample: circle } }), [/\/properties\/kind\/x-when: the x-when of "kind" → "detail" → "kind" read each other round a circle/]);
  });
});
