/** The flow lint's rule back-on-step-pages: src/flow-tools/lint/rules/back-on-step-pages.ts. */
import { describe, expect, it } from 'vitest';
import { flowPathsOf, lintFlow } from '../../../src/flow-tools/lint';
import { lint, broken, lineOfPointer, expectProblem, generalText, childText, schema, formNames, expectKind, type KindCase } from './helpers';

describe('back-on-step-pages', () => {
  it('missing BACK on a step page', () => {
    const text = broken((f) => {
      delete f.states.workplace.on.BACK;
    });
    expectProblem(lint(text), text, '/states/workplace/on', 'step page "workplace" has no BACK transition, but "personal" leads to it by NEXT; add "BACK": "personal"');
  });

  it('a step page after a page without a step needs BACK too (the spec: personal goes back to verification)', () => {
    const text = broken((f) => {
      delete f.states.personal.on.BACK;
    });
    expectProblem(lint(text), text, '/states/personal/on', 'step page "personal" has no BACK transition, but "verification" leads to it by NEXT; add "BACK": "verification"');
  });

  it('the page after the PIN and the hand-over pages are exempt; other child step pages are not', () => {
    const text = broken((f) => {
      delete f.states.identificationDocuments.on.BACK;
    }, childText);
    const problems = lintFlow({ fileName: 'flows/child.json', text, schema, formNames, otherFlowPaths: flowPathsOf(generalText) });
    expect(problems).toEqual([expect.objectContaining({ pointer: '/states/identificationDocuments/on', line: lineOfPointer(text, '/states/identificationDocuments/on') })]);
  });

  // Kinds of mistake from the lint's checklist (issue 6): a hand edit of a shipped file and its exact line.
  it.each<KindCase>([
    {
      kind: 'a step page with no way back where the spec has one',
      flow: 'general',
      edits: [['"NEXT": "confirmation", "BACK": "branch"', '"NEXT": "confirmation"']],
      pointer: '/states/sealLess/on',
      lineWith: '"NEXT": "confirmation" }',
      message: 'step page "sealLess" has no BACK transition, but "branch" leads to it by NEXT; add "BACK": "branch"',
    },
  ])('$kind', expectKind);
});
