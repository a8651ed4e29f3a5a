/** The flow lint's rule invoked-actor-outcomes: src/flow-tools/lint/rules/invoked-actor-outcomes.ts. */
import { describe, it } from 'vitest';
import { lint, broken, expectProblem, expectKind, type KindCase } from './helpers';

describe('invoked-actor-outcomes', () => {
  it('an invoked actor needs both onDone and onError', () => {
    const text = broken((f) => {
      delete f.states.redirect.invoke.onError;
      delete f.states.ekycCallback.invoke.onDone;
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/redirect/invoke', 'the invoked actor "completeApplication" in "redirect" has no onError: when it fails, the applicant would stay on this page for ever');
    expectProblem(problems, text, '/states/ekycCallback/invoke', 'the invoked actor "pollEkycStatus" in "ekycCallback" has no onDone');
  });

  // Kinds of mistake from the lint's checklist (issue 6): a hand edit of a shipped file and its exact line.
  it.each<KindCase>([
    {
      kind: 'dead end: an invoked actor without onError',
      flow: 'general',
      edits: [['"onDone": "complete",\n        "onError": "error"', '"onDone": "complete"']],
      pointer: '/states/redirect/invoke',
      lineWith: '"src": "completeApplication"',
      lineDelta: -1, // the "invoke" key, on the line above
      message: 'the invoked actor "completeApplication" in "redirect" has no onError',
    },
  ])('$kind', expectKind);
});
