/** The flow lint's rule landing-and-error-page: src/flow-tools/lint/rules/landing-and-error-page.ts. */
import { describe, expect, it } from 'vitest';
import { lint, broken, expectProblem, childText } from './helpers';

describe('landing-and-error-page', () => {
  it('bad landing and errorState', () => {
    const text = broken((f) => {
      f.meta.landing = 'trem';
    });
    const problems = lint(text);
    expectProblem(problems, text, '/meta/landing', 'meta.landing "trem" is not a state of this flow (pages: term, verification, ');
    expect(problems[0]?.message).toMatch(/Did you mean "term"\?$/);
    const pathless = broken((f) => {
      f.meta.errorState = 'generalError';
    }, childText);
    expectProblem(lint(pathless, 'flows/child.json'), pathless, '/meta/errorState', 'meta.errorState "generalError" is a state without meta.path');
  });
});
