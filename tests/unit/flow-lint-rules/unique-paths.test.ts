/** The flow lint's rule unique-paths: src/flow-tools/lint/rules/unique-paths.ts. */
import { describe, it } from 'vitest';
import { lint, broken, lineOfPointer, expectProblem, expectKind, type KindCase } from './helpers';

describe('unique-paths', () => {
  it('duplicate path within the flow', () => {
    const text = broken((f) => {
      f.states.workplace.meta.path = '/personal';
    });
    expectProblem(lint(text), text, '/states/workplace/meta/path', `path "/personal" is already used by state "personal" (line ${lineOfPointer(text, '/states/personal/meta/path')})`);
  });

  it('path used by another flow', () => {
    const text = broken((f) => {
      f.states.supplement.meta.path = '/child/term';
    });
    expectProblem(lint(text), text, '/states/supplement/meta/path', 'path "/child/term" is also used by another flow');
  });

  // Kinds of mistake from the lint's checklist (issue 6): a hand edit of a shipped file and its exact line.
  it.each<KindCase>([
    {
      kind: 'duplicate path',
      flow: 'general',
      edits: [['"path": "/seal-less"', '"path": "/branch"']],
      pointer: '/states/sealLess/meta/path',
      lineWith: '"screen": "FormStep", "step": 4',
      message: 'path "/branch" is already used by state "branch" (line ',
    },
  ])('$kind', expectKind);
});
