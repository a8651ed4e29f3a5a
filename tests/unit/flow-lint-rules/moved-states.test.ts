/** The flow lint's rule moved-states: src/flow-tools/lint/rules/moved-states.ts. */
import { describe, expect, it } from 'vitest';
import { broken, expectKind, expectProblem, lint, type KindCase } from './helpers';

describe('moved-states', () => {
  it('takes a removed state mapped to a step of the flow', () => {
    const text = broken((f) => {
      f.meta.movedStates = { sealLessOld: 'confirmation', contact: 'branch' };
    });
    expect(lint(text)).toEqual([]);
  });

  it('refuses a target that is not a step an applicant goes on at, with the steps and a "Did you mean"', () => {
    const text = broken((f) => {
      f.meta.movedStates = { contact: 'brnch' };
    });
    const problem = expectProblem(lint(text), text, '/meta/movedStates/contact', 'movedStates: "contact" moves its applicants to "brnch", which is not a step of this flow they can go on at (steps after the e-mail check: personal, workplace, branch, sealLess, confirmation, pin, ');
    expect(problem.message).toMatch(/Did you mean "branch"\?$/);
    // A page, but not one after the e-mail check: nobody can be there with an application.
    const landing = broken((f) => {
      f.meta.movedStates = { contact: 'term' };
    });
    expectProblem(lint(landing), landing, '/meta/movedStates/contact', 'movedStates: "contact" moves its applicants to "term", which is not a step');
  });

  it('refuses a key this flow still has: nothing to move', () => {
    const text = broken((f) => {
      f.meta.movedStates = { branch: 'confirmation' };
    });
    expectProblem(lint(text), text, '/meta/movedStates/branch', 'movedStates: "branch" is still a state of this flow, so there is nothing to move');
  });

  it('refuses a value that is no state name (the schema)', () => {
    const text = broken((f) => {
      f.meta.movedStates = { contact: 'the branch' };
    });
    expect(lint(text).map((p) => p.pointer)).toContain('/meta/movedStates/contact');
  });

  // Kinds of mistake from the lint's checklist (issue 6): a hand edit of a shipped file and its exact line.
  it.each<KindCase>([
    {
      kind: 'moved to a misspelt step',
      flow: 'general',
      edits: [['"errorState": "error"', '"errorState": "error",\n    "movedStates": { "sealLessOld": "confirmaton" }']],
      pointer: '/meta/movedStates/sealLessOld',
      lineWith: '"movedStates"',
      message: 'Did you mean "confirmation"?',
    },
  ])('$kind', expectKind);
});
