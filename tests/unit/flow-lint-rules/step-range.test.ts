/** The flow lint's rule step-range: src/flow-tools/lint/rules/step-range.ts. */
import { describe, it } from 'vitest';
import { lint, broken, expectProblem } from './helpers';

describe('step-range', () => {
  it('step above totalSteps, and totalSteps not the largest step', () => {
    const text = broken((f) => {
      f.states.ekycPreparation.meta.step = 9;
      f.states.ekycCallback.meta.step = 9;
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/ekycPreparation/meta/step', 'step 9 of "ekycPreparation" is outside 1..7');
    expectProblem(problems, text, '/meta/totalSteps', 'meta.totalSteps is 7 but the largest step is 9');
    const lower = broken((f) => {
      f.meta.totalSteps = 8;
    });
    expectProblem(lint(lower), lower, '/meta/totalSteps', 'meta.totalSteps is 8 but the largest step is 7 (state "ekycPreparation"); they must be equal');
  });
});
