/** The flow lint's rule way-to-an-end: src/flow-tools/lint/rules/way-to-an-end.ts. */
import { describe, expect, it } from 'vitest';
import { lint, broken, expectProblem } from './helpers';

describe('way-to-an-end', () => {
  it('states that only lead to each other are a dead end too', () => {
    const text = broken((f) => {
      delete f.states.supplement.on.NEXT;
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/supplement', 'state "supplement" is a dead end: no way from it leads to a final state or to the identity provider (it only leads to "supplementError", "supplement")');
    expectProblem(problems, text, '/states/supplementError', 'state "supplementError" is a dead end: no way from it leads to a final state');
    expect(problems).toHaveLength(2);
  });
});
