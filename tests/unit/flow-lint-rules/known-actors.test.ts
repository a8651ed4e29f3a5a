/** The flow lint's rule known-actors: src/flow-tools/lint/rules/known-actors.ts. */
import { describe, it } from 'vitest';
import { lint, broken, expectProblem, expectKind, type KindCase } from './helpers';

describe('known-actors', () => {
  it('unknown actor', () => {
    const text = broken((f) => {
      f.states.redirect.invoke.src = 'completeApp';
    });
    expectProblem(lint(text), text, '/states/redirect/invoke/src', 'unknown actor "completeApp" (known actors: startEkyc, pollEkycStatus, completeApplication). Did you mean "completeApplication"?');
  });

  // Kinds of mistake from the lint's checklist (issue 6): a hand edit of a shipped file and its exact line.
  it.each<KindCase>([
    {
      kind: 'unknown actor',
      flow: 'general',
      edits: [['"src": "completeApplication"', '"src": "completeApp"']],
      pointer: '/states/redirect/invoke/src',
      lineWith: '"completeApp"',
      message: 'unknown actor "completeApp" (known actors: startEkyc, pollEkycStatus, completeApplication). Did you mean "completeApplication"?',
    },
  ])('$kind', expectKind);
});
