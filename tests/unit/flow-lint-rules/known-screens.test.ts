/** The flow lint's rule known-screens: src/flow-tools/lint/rules/known-screens.ts. */
import { describe, it } from 'vitest';
import { lint, broken, expectProblem, expectKind, type KindCase } from './helpers';

describe('known-screens', () => {
  it('unknown screen', () => {
    const text = broken((f) => {
      f.states.workplace.meta.screen = 'FormSteps';
    });
    expectProblem(lint(text), text, '/states/workplace/meta/screen', 'Did you mean "FormStep"?');
  });

  // Kinds of mistake from the lint's checklist (issue 6): a hand edit of a shipped file and its exact line.
  it.each<KindCase>([
    {
      kind: 'unknown screen',
      flow: 'child',
      edits: [['"screen": "ChildTerm"', '"screen": "ChildTerms"']],
      pointer: '/states/term/meta/screen',
      lineWith: '"ChildTerms"',
      message: 'unknown screen "ChildTerms" (known screens: GeneralTerm, ',
    },
  ])('$kind', expectKind);
});
