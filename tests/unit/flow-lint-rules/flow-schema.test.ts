/** The flow lint's rule flow-schema: src/flow-tools/lint/rules/flow-schema.ts. */
import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../../src/flow-tools/lint';
import { lint, broken, expectProblem, expectKind, type KindCase } from './helpers';

describe('flow-schema', () => {
  it('a typo in a meta key', () => {
    const text = broken((f) => {
      f.states.personal.meta.scren = f.states.personal.meta.screen;
      delete f.states.personal.meta.screen;
    });
    const p = expectProblem(lint(text), text, '/states/personal/meta/scren', 'unknown key "scren" (allowed keys here: path, screen, step, form, entry, title, exitTo). Did you mean "screen"?');
    expect(formatProblem(p)).toBe(`flows/general.json:${p.line} /states/personal/meta/scren: ${p.message}`);
  });

  it('a typo in a transition key', () => {
    const text = broken((f) => {
      f.states.personal.on.NEXT = { tagret: 'workplace' };
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/personal/on/NEXT/tagret', 'unknown key "tagret" (allowed keys here: target, guard, actions, reenter). Did you mean "target"?');
    expect(problems).toHaveLength(1); // no noise from the string/object/list alternatives
  });

  it('a typo in an action ref reports the key once, not also the missing "type"', () => {
    const text = broken((f) => {
      f.states.term.entry = [{ typ: 'clearSessionStorage' }];
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/term/entry/0/typ', 'Did you mean "type"?');
    expect(problems).toHaveLength(1);
  });

  it('wrong types, missing keys, bad paths, bad state names', () => {
    const text = broken((f) => {
      f.states.workplace.meta.step = '2';
      f.states.branch.meta.path = 'branch';
      delete f.meta.landing;
      f.meta.applicationType = 'GENRAL';
      f.states['sub.state'] = { type: 'final' };
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/workplace/meta/step', '"step" must be integer, not string "2"');
    expectProblem(problems, text, '/states/branch/meta/path', '"path" must start with "/", not "branch"');
    expectProblem(problems, text, '/meta', 'missing the required key "landing"');
    expectProblem(problems, text, '/meta/applicationType', '"applicationType" cannot be "GENRAL" (allowed: GENERAL, CHILD). Did you mean "GENERAL"?');
    expectProblem(problems, text, '/states/sub.state', 'state name "sub.state" must start with a letter');
  });

  // Kinds of mistake from the lint's checklist (issue 6): a hand edit of a shipped file and its exact line.
  it.each<KindCase>([
    {
      kind: 'schema error (a misspelt key)',
      flow: 'general',
      edits: [['"path": "/workplace", "screen": "FormStep"', '"path": "/workplace", "scren": "FormStep"']],
      pointer: '/states/workplace/meta/scren',
      lineWith: '"scren"',
      message: 'unknown key "scren" (allowed keys here: path, screen, step, form, entry, title, exitTo). Did you mean "screen"?',
    },
    {
      kind: 'schema error (a step that is not a whole number)',
      flow: 'child',
      edits: [['"step": 3,', '"step": "3",']],
      pointer: '/states/branch/meta/step',
      lineWith: '"step": "3"',
      message: '"step" must be integer, not string "3"',
    },
  ])('$kind', expectKind);
});
