/** The flow lint's rule known-events: src/flow-tools/lint/rules/known-events.ts. */
import { describe, it } from 'vitest';
import { lint, broken, expectProblem } from './helpers';

describe('known-events', () => {
  it('unknown event', () => {
    const text = broken((f) => {
      f.states.supplement.on.FAILED = f.states.supplement.on.FAIL;
      delete f.states.supplement.on.FAIL;
    });
    expectProblem(lint(text), text, '/states/supplement/on/FAILED', 'unknown event "FAILED" (known events: NEXT, BACK, RETRY, RESTART, FAIL, CODE_SENT, START_EKYC, START_JPKI). Did you mean "FAIL"?');
  });
});
