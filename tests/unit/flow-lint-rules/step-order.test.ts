/** The flow lint's rule step-order: src/flow-tools/lint/rules/step-order.ts. */
import { describe, expect, it } from 'vitest';
import { flowPathsOf, lintFlow } from '../../../src/flow-tools/lint';
import { lint, broken, lineOfPointer, expectProblem, generalText, childText, schema, formNames, type Loose, expectKind, type KindCase } from './helpers';

describe('step-order', () => {
  it('step lower than the one before it on the forward path', () => {
    const text = broken((f) => {
      f.states.branch.meta.step = 1;
    });
    expectProblem(lint(text), text, '/states/branch/meta/step', 'step 1 of "branch" is lower than step 2 of "workplace", which leads to it by NEXT');
  });

  it('the identity provider\'s return is on the forward path: the return page may not count lower than the hand-over page', () => {
    const text = broken((f) => {
      f.states.ekycCallback.meta.step = 6;
    });
    expectProblem(lint(text), text, '/states/ekycCallback/meta/step', 'step 6 of "ekycCallback" is lower than step 7 of "ekycPreparation", which hands over to the identity provider, who sends the applicant back to it');
  });

  it('the last step is carried through pages without a step', () => {
    const text = broken((f) => {
      delete f.states.confirmation.meta.step;
      f.states.pin.meta.step = 2;
      f.states.identificationDocuments.meta.step = 8; // keeps the child's steps going up after the PIN
      f.states.supplementaryDocuments.meta.step = 9;
    }, childText);
    const problems = lintFlow({ fileName: 'flows/child.json', text, schema, formNames, otherFlowPaths: flowPathsOf(generalText) });
    expect(problems).toEqual([
      expect.objectContaining({
        pointer: '/states/pin/meta/step',
        line: lineOfPointer(text, '/states/pin/meta/step'),
        message: 'step 2 of "pin" is lower than step 3 of "branch", which comes before it on the forward path; steps must not go down',
      }),
    ]);
  });

  it('the first step page must be step 1', () => {
    const text = broken((f) => {
      for (const s of Object.values(f.states) as Loose[]) if (s.meta?.step) s.meta.step += 1;
      f.meta.totalSteps = 8;
    });
    expectProblem(lint(text), text, '/states/personal/meta/step', 'the first step page on the forward path, "personal", has step 2; it must be 1');
  });

  // Kinds of mistake from the lint's checklist (issue 6): a hand edit of a shipped file and its exact line.
  it.each<KindCase>([
    {
      kind: 'step counters out of order (two steps swapped)',
      flow: 'general',
      edits: [
        ['"step": 3,', '"step": 4,'],
        ['"step": 4, "form": "sealLess"', '"step": 3, "form": "sealLess"'],
      ],
      pointer: '/states/sealLess/meta/step',
      lineWith: '"/seal-less"',
      message: 'step 3 of "sealLess" is lower than step 4 of "branch", which leads to it by NEXT; steps must not go down',
    },
    {
      kind: 'step counters out of order (two pages reordered, steps left as they were)',
      flow: 'general',
      edits: [
        ['"NEXT": "branch", "BACK": "personal"', '"NEXT": "sealLess", "BACK": "personal"'],
        ['"NEXT": "sealLess", "BACK": "workplace"', '"NEXT": "confirmation", "BACK": "sealLess"'],
        ['"NEXT": "confirmation", "BACK": "branch"', '"NEXT": "branch", "BACK": "workplace"'],
        ['"NEXT": "pin", "BACK": "sealLess"', '"NEXT": "pin", "BACK": "branch"'],
      ],
      pointer: '/states/branch/meta/step',
      lineWith: '"path": "/branch"',
      message: 'step 3 of "branch" is lower than step 4 of "sealLess", which leads to it by NEXT; steps must not go down',
    },
    {
      kind: 'step counters out of order (the eKYC return page below the hand-over page)',
      flow: 'child',
      edits: [['"step": 12, "entry": true', '"step": 11, "entry": true']],
      pointer: '/states/ekycCallback/meta/step',
      lineWith: '"step": 11',
      message: 'step 11 of "ekycCallback" is lower than step 12 of "parentEkycPreparation", which hands over to the identity provider',
    },
  ])('$kind', expectKind);
});
