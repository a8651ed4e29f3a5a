/** The flow lint's rule reachable-states: src/flow-tools/lint/rules/reachable-states.ts. */
import { describe, expect, it } from 'vitest';
import { lint, broken, expectProblem, expectKind, type KindCase } from './helpers';

describe('reachable-states', () => {
  it('unreachable state', () => {
    const text = broken((f) => {
      f.states.orphan = { meta: { path: '/orphan', screen: 'Complete', title: 'x' }, type: 'final' };
      f.states.verification.states.spare = { on: { BACK: 'address' } };
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/orphan', 'state "orphan" can never be reached');
    expectProblem(problems, text, '/states/verification/states/spare', 'state "verification.spare" can never be reached');
  });

  it('a state reached only through an unreachable one is unreachable too, and the entry pages are roots', () => {
    const text = broken((f) => {
      f.states.ekycCallback.meta.entry = false;
    });
    const problems = lint(text).filter((p) => p.message.includes('never be reached'));
    expect(problems.map((p) => p.pointer)).toEqual(['/states/ekycCallback', '/states/supplement', '/states/supplementError', '/states/redirect', '/states/complete']);
  });

  // Kinds of mistake from the lint's checklist (issue 6): a hand edit of a shipped file and its exact line.
  it.each<KindCase>([
    {
      kind: 'state unreachable from the start',
      flow: 'general',
      edits: [
        ['"NEXT": "confirmation", "BACK": "branch"', '"NEXT": "pin", "BACK": "branch"'],
        ['"NEXT": "ekycPreparation", "BACK": "confirmation"', '"NEXT": "ekycPreparation", "BACK": "sealLess"'],
      ],
      pointer: '/states/confirmation',
      lineWith: '"confirmation": {',
      message: 'state "confirmation" can never be reached: no transition leads to it from the initial state "term", an entry page or the error page',
    },
    {
      kind: 'state unreachable: the eKYC return page is only reached from outside (meta.entry)',
      flow: 'general',
      edits: [['"step": 7, "entry": true,', '"step": 7,']],
      pointer: '/states/ekycCallback',
      lineWith: '"ekycCallback": {',
      message: 'state "ekycCallback" can never be reached',
      alsoReported: ['/states/supplement', '/states/supplementError', '/states/redirect', '/states/complete'],
    },
  ])('$kind', expectKind);
});
