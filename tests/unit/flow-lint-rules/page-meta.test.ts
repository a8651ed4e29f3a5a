/** The flow lint's rule page-meta: src/flow-tools/lint/rules/page-meta.ts. */
import { describe, it } from 'vitest';
import { lint, broken, expectProblem, childText } from './helpers';

describe('page-meta', () => {
  it('page metadata: nested meta, page without screen, exit state not final', () => {
    const text = broken((f) => {
      f.states.verification.states.code.meta = { path: '/code' };
      delete f.states.complete.meta.screen;
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/verification/states/code/meta', 'meta.path is only read on top-level states');
    expectProblem(problems, text, '/states/complete/meta', 'page "complete" (path "/complete") has no meta.screen');
    const exit = broken((f) => {
      delete f.states.generalError.type;
      f.states.generalError.on = { RESTART: 'beforeCheck' };
    }, childText);
    expectProblem(lint(exit, 'flows/child.json'), exit, '/states/generalError/meta/exitTo', 'must be "type": "final"');
  });
});
