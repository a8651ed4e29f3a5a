/** The flow lint's rule known-guards: src/flow-tools/lint/rules/known-guards.ts. */
import { describe, it } from 'vitest';
import { lint, broken, expectProblem, expectKind, type KindCase } from './helpers';

describe('known-guards', () => {
  it('unknown guard', () => {
    const text = broken((f) => {
      f.states.ekycCallback.invoke.onDone[0].guard = 'supplementRequestd';
    });
    expectProblem(lint(text), text, '/states/ekycCallback/invoke/onDone/0/guard', 'unknown guard "supplementRequestd" (known guards: supplementRequested, photoIdOffered, jpkiOffered, childDocumentImagesOffered). Did you mean "supplementRequested"?');
  });

  // Kinds of mistake from the lint's checklist (issue 6): a hand edit of a shipped file and its exact line.
  it.each<KindCase>([
    {
      kind: 'unknown guard',
      flow: 'general',
      edits: [['"guard": "supplementRequested"', '"guard": "supplementRequestd"']],
      pointer: '/states/ekycCallback/invoke/onDone/0/guard',
      lineWith: 'supplementRequestd',
      message: 'unknown guard "supplementRequestd" (known guards: supplementRequested, photoIdOffered, jpkiOffered, childDocumentImagesOffered). Did you mean "supplementRequested"?',
    },
  ])('$kind', expectKind);
});
