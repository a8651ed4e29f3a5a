/** The flow lint's rule known-actions: src/flow-tools/lint/rules/known-actions.ts. */
import { describe, it } from 'vitest';
import { lint, broken, expectProblem, expectKind, type KindCase } from './helpers';

describe('known-actions', () => {
  it('unknown action in entry and in a transition', () => {
    const text = broken((f) => {
      f.states.term.entry[0].type = 'clearSessionStorag';
      f.states.term.on.NEXT.actions = ['storeBank'];
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/term/entry/0/type', 'unknown action "clearSessionStorag" (known actions: clearSessionStorage, storeBankCode, ');
    expectProblem(problems, text, '/states/term/on/NEXT/actions/0', 'unknown action "storeBank"');
  });

  // Kinds of mistake from the lint's checklist (issue 6): a hand edit of a shipped file and its exact line.
  it.each<KindCase>([
    {
      kind: 'unknown action',
      flow: 'general',
      edits: [['"storeBankCode"', '"storeBankcode"']],
      pointer: '/states/term/on/NEXT/actions/0/type',
      lineWith: 'storeBankcode',
      message: 'unknown action "storeBankcode" (known actions: clearSessionStorage, storeBankCode, forgetAuthenticationToken, leaveForProvider, clearApplicationTraces). Did you mean "storeBankCode"?',
    },
  ])('$kind', expectKind);
});
