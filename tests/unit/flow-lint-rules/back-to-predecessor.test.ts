/** The flow lint's rule back-to-predecessor: src/flow-tools/lint/rules/back-to-predecessor.ts. */
import { describe, it } from 'vitest';
import { lint, broken, expectProblem, expectKind, type KindCase } from './helpers';

describe('back-to-predecessor', () => {
  it('BACK must lead to a page that leads here by NEXT', () => {
    const text = broken((f) => {
      f.states.branch.on.BACK = 'personal';
    });
    expectProblem(lint(text), text, '/states/branch/on/BACK', 'BACK from "branch" leads to "personal", but "personal" does not lead to "branch" by NEXT (pages that do: workplace)');
  });

  // Kinds of mistake from the lint's checklist (issue 6): a hand edit of a shipped file and its exact line.
  it.each<KindCase>([
    {
      kind: 'a way back to a page the applicant did not come from',
      flow: 'child',
      edits: [['"NEXT": "confirmation", "BACK": "parent"', '"NEXT": "confirmation", "BACK": "personal"']],
      pointer: '/states/branch/on/BACK',
      lineWith: '"NEXT": "confirmation", "BACK": "personal"',
      message: 'BACK from "branch" leads to "personal", but "personal" does not lead to "branch" by NEXT (pages that do: parent)',
    },
  ])('$kind', expectKind);
});
