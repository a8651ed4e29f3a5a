/** The flow lint's rule exit-to-other-flow: src/flow-tools/lint/rules/exit-to-other-flow.ts. */
import { describe, it } from 'vitest';
import { lint, broken, expectProblem, childText } from './helpers';

describe('exit-to-other-flow', () => {
  it('exitTo must be a page of another flow', () => {
    // The child flow's failed completion leaves for the general /error page (spec section 8).
    const text = broken((f) => {
      f.states.generalError.meta.exitTo = '/eror';
    }, childText);
    expectProblem(lint(text, 'flows/child.json'), text, '/states/generalError/meta/exitTo', 'Did you mean "/error"?');
    const own = broken((f) => {
      f.states.generalError.meta.exitTo = '/child/term';
    }, childText);
    expectProblem(lint(own, 'flows/child.json'), own, '/states/generalError/meta/exitTo', 'is a page of this flow');
  });
});
