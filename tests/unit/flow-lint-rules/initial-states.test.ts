/** The flow lint's rule initial-states: src/flow-tools/lint/rules/initial-states.ts. */
import { describe, it } from 'vitest';
import { lint, broken, expectProblem } from './helpers';

describe('initial-states', () => {
  it('initial states', () => {
    const text = broken((f) => {
      f.initial = 'terms';
      f.states.ekycPreparation.initial = 'redy';
      delete f.states.verification.initial;
    });
    const problems = lint(text);
    expectProblem(problems, text, '/initial', 'initial state "terms" does not exist (states: term, ');
    expectProblem(problems, text, '/states/ekycPreparation/initial', 'initial state "redy" does not exist (sub-states of "ekycPreparation": ready, starting, startingJpki, leaving). Did you mean "ready"?');
    expectProblem(problems, text, '/states/verification', 'has sub-states but no "initial"');
  });
});
