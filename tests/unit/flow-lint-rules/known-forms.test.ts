/** The flow lint's rule known-forms: src/flow-tools/lint/rules/known-forms.ts. */
import { describe, it } from 'vitest';
import { lint, broken, expectProblem, expectKind, type KindCase } from './helpers';

describe('known-forms', () => {
  it('unknown form', () => {
    const text = broken((f) => {
      f.states.personal.meta.form = 'persona';
    });
    expectProblem(lint(text), text, '/states/personal/meta/form', 'unknown form "persona" (known forms, schemas/<form>.schema.json: branch, confirmation, parent, parent-workplace, personal, pin, sealLess, workplace). Did you mean "personal"?');
  });

  it('an unknown form in a page’s list, at its place in the list', () => {
    const text = broken((f) => {
      f.states.personal.meta.form = ['personal', 'workplce'];
    });
    expectProblem(lint(text), text, '/states/personal/meta/form/1', 'unknown form "workplce" (known forms, schemas/<form>.schema.json: branch, confirmation, parent, parent-workplace, personal, pin, sealLess, workplace). Did you mean "workplace"?');
  });

  // Kinds of mistake from the lint's checklist (issue 6): a hand edit of a shipped file and its exact line.
  it.each<KindCase>([
    {
      kind: 'unknown schema (form) name',
      flow: 'general',
      edits: [['"form": "branch"', '"form": "branches"']],
      pointer: '/states/branch/meta/form',
      lineWith: '"branches"',
      message: 'unknown form "branches" (known forms, schemas/<form>.schema.json: ',
    },
    {
      kind: 'a form screen without its form',
      flow: 'general',
      edits: [[', "form": "branch"', '']],
      pointer: '/states/branch/meta',
      lineWith: '"path": "/branch"',
      message: 'screen "FormStep" asks a form: name it in "form" (known forms, schemas/<form>.schema.json: ',
    },
    {
      kind: 'a form on a screen that asks none',
      flow: 'general',
      edits: [['"screen": "FormStep", "step": 4, "form": "sealLess"', '"screen": "Complete", "step": 4, "form": "sealLess"']],
      pointer: '/states/sealLess/meta/form',
      lineWith: '"screen": "Complete", "step": 4',
      message: 'screen "Complete" asks no form, so "form" would be ignored; remove it (screens with a form: FormStep, Confirmation, Pin)',
    },
  ])('$kind', expectKind);
});
