/** The flow lint's rule transition-targets: src/flow-tools/lint/rules/transition-targets.ts. */
import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../../src/flow-tools/lint';
import { lint, broken, expectProblem, generalText, expectKind, type KindCase } from './helpers';

describe('transition-targets', () => {
  it('missing sibling target', () => {
    const text = broken((f) => {
      f.states.personal.on.NEXT = 'workplce';
    });
    const p = expectProblem(lint(text), text, '/states/personal/on/NEXT', 'transition target "workplce" does not exist (states: term, verification, personal, workplace, ');
    expect(p.message).toMatch(/\(states: [^)]*\)\. Did you mean "workplace"\?$/);
    expect(formatProblem(p)).toBe(`flows/general.json:${p.line} /states/personal/on/NEXT: ${p.message}`);
    // The pages behind it are not also reported as unreachable: that would only echo this mistake.
    expect(lint(text)).toHaveLength(1);
  });

  it('the line is right in the hand-formatted file too', () => {
    const text = generalText.replace('"NEXT": "workplace"', '"NEXT": "workplce"');
    const problem = lint(text).find((p) => p.message.includes('"workplce"'));
    expect(problem?.line).toBe(text.split('\n').findIndex((l) => l.includes('"workplce"')) + 1);
  });

  it('#id targets: unknown state, other flow id; relative and nested targets', () => {
    const text = broken((f) => {
      f.states.ekycPreparation.states.starting.invoke.onError = '#general.ekycErorr';
      f.states.redirect.invoke.onError = '#child.error';
      f.states.verification.states.address.on.CODE_SENT = '.code';
      f.states.verification.states.code.on.BACK = 'adress';
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/ekycPreparation/states/starting/invoke/onError', 'transition target "#general.ekycErorr" does not exist (states: term,');
    expect(problems.find((p) => p.message.includes('ekycErorr'))?.message).toMatch(/Did you mean "ekycError"\?$/);
    expectProblem(problems, text, '/states/redirect/invoke/onError', 'refers to "#child", but this flow\'s id is "general"');
    expectProblem(problems, text, '/states/verification/states/address/on/CODE_SENT', '"verification.address" has no sub-states');
    expectProblem(problems, text, '/states/verification/states/code/on/BACK', 'transition target "adress" does not exist (states of "verification": address, code). Did you mean "address"?');
  });

  // Kinds of mistake from the lint's checklist (issue 6): a hand edit of a shipped file and its exact line.
  it.each<KindCase>([
    {
      kind: 'transition to a missing state',
      flow: 'general',
      edits: [['"NEXT": "sealLess"', '"NEXT": "sealless"']],
      pointer: '/states/branch/on/NEXT',
      lineWith: '"sealless"',
      message: 'transition target "sealless" does not exist (states: term, ',
    },
  ])('$kind', expectKind);
});
