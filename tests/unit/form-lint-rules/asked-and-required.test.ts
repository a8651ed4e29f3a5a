/** The form lint's rule asked-and-required: src/flow-tools/form-lint/rules/asked-and-required.ts. */
import { describe, it } from 'vitest';
import { expectProblems, flowAsking, form, lint } from './helpers';

describe('asked-and-required', () => {
  it('passes a required field that is asked only sometimes: it is required while asked', () => {
    expectProblems(lint({ forms: { sample: form((schema) => schema.required.push('detail')) } }), []);
  });

  it('refuses a required field that is never asked', () => {
    const never = form((schema) => {
      schema.required.push('detail');
      schema.properties.detail['x-when'] = false;
    });
    expectProblems(lint({ forms: { sample: never } }), [/\/properties\/detail\/x-when: "detail" is required but never asked \(its x-when is false\): an applicant could never give it; ask it, or do not require it$/]);
  });

  it('passes a field asked in one flow only (false in the form, asked by that flow\'s overlay)', () => {
    const oneFlow = form((schema) => {
      schema.required.push('detail');
      schema.properties.detail['x-when'] = false;
      schema['x-flows'] = { general: { properties: { detail: { 'x-when': true } } } };
    });
    expectProblems(lint({ forms: { sample: oneFlow }, flows: [flowAsking('general', [['sample']])] }), []);
  });

  it('refuses two ways of requiring one field, a condition that never holds, and required naming no field', () => {
    const twice = form((schema) => {
      schema.required.push('detail', 'detial');
      schema.properties.detail['x-required-when'] = { field: 'kind', equals: 'A' };
      schema.properties.kind['x-locked-when'] = false;
    });
    expectProblems(lint({ forms: { sample: twice } }), [
      /\/required\/2: "required" names "detial", which is not a field of this form$/,
      /\/properties\/kind\/x-locked-when: an x-locked-when of false never holds: remove it$/,
      /\/properties\/detail\/x-required-when: "detail" is in "required" \(always required while asked\) and has an x-required-when \(required only while it holds\): keep one$/,
    ]);
  });
});
