/** The form lint's rule flow-overlays: src/flow-tools/form-lint/rules/flow-overlays.ts. */
import { describe, it } from 'vitest';
import { expectProblems, flowAsking, form, lint } from './helpers';

describe('flow-overlays', () => {
  const flows = [flowAsking('general', [['sample']]), flowAsking('child', [['other']])];
  const other = form(undefined, '/applications/other');

  it('takes an overlay for a flow that asks the form', () => {
    expectProblems(lint({ forms: { sample: form((schema) => (schema['x-flows'] = { general: { properties: { detail: { 'x-when': false } } } })), other }, flows }), []);
  });

  it('refuses an overlay of no flow (with a suggestion), of a flow that does not ask the form, and of a field the form lacks', () => {
    const wrong = form((schema) => (schema['x-flows'] = { chlid: {}, child: { properties: { detial: { 'x-when': false } } } }));
    expectProblems(lint({ forms: { sample: wrong, other }, flows }), [
      /\/x-flows\/chlid: unknown flow "chlid" \(flows, flows\/<id>\.json: general, child\)\. Did you mean "child"\?$/,
      /\/x-flows\/child: flow "child" does not ask form "sample" on any page, so this overlay would do nothing$/,
      /\/x-flows\/child\/properties\/detial: unknown field "detial" \(fields of this form: kind, detail, purposes\)\. Did you mean "detail"\?$/,
    ]);
  });
});
