/** The form lint's rule forms-after-order: src/flow-tools/form-lint/rules/forms-after-order.ts. */
import { describe, it } from 'vitest';
import { expectProblems, flowAsking, form, lint } from './helpers';

describe('forms-after-order', () => {
  const first = form((schema) => ((schema.properties = { one: { type: 'string', title: '一' } }), (schema.required = []), (schema['x-ui'] = {})), '/applications/first');
  const after = form((schema) => (schema['x-step'].after = ['first']));

  it('takes a form after one the flow asks before it', () => {
    expectProblems(lint({ forms: { first, sample: after }, flows: [flowAsking('general', [['first'], ['sample']])] }), []);
  });

  it('refuses a form after one the flow asks later', () => {
    expectProblems(lint({ forms: { first, sample: after }, flows: [flowAsking('general', [['sample'], ['first']])] }), [
      /\/states\/page0\/meta\/form: form "sample" comes after form "first" \(x-step\.after\), which this flow does not ask before it; ask it on an earlier page, or drop it from "after"$/,
    ]);
  });
});
