/** The form lint's rule forms-before-pin: src/flow-tools/form-lint/rules/forms-before-pin.ts. */
import { describe, it } from 'vitest';
import type { FlowConfig } from '../../../src/domain/flow/types';
import { expectProblems, flowAsking, form, lint, type Loose } from './helpers';

describe('forms-before-pin', () => {
  it('refuses a form step after the PIN page, which nothing could store', () => {
    const flow = flowAsking('general', [['sample']]) as unknown as Loose;
    // The form's page moved after the PIN.
    flow.states.verification.on.NEXT = 'pin';
    flow.states.pin.on.NEXT = 'page0';
    flow.states.page0.on.NEXT = 'done';
    expectProblems(lint({ forms: { sample: form() }, flows: [flow as FlowConfig] }), [
      /^flows\/general\.json:\d+ \/states\/page0\/meta\/form: form "sample" comes after the PIN page, when what was entered can no longer change; move the page before the PIN$/,
    ]);
  });
});
