/** The form lint's rule form-step-screen: src/flow-tools/form-lint/rules/form-step-screen.ts. */
import { describe, it } from 'vitest';
import { expectProblems, flowAsking, form, lint } from './helpers';

describe('form-step-screen', () => {
  it('refuses the generic form screen on a form that says nowhere where it is posted', () => {
    const own = form((schema) => delete schema['x-step']);
    expectProblems(lint({ forms: { sample: own }, flows: [flowAsking('general', [['sample']])] }), [
      /^flows\/general\.json:\d+ \/states\/page0\/meta\/form: screen "FormStep" needs a form with "x-step" \(where it is posted\), but schemas\/sample\.schema\.json has none$/,
    ]);
  });
});
