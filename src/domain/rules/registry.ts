/**
 * The rules a schema can name in its `x-step.rules`, each written once and run by the page
 * (after its precompiled validator) and by the server's form-step handler (after ajv), so
 * both answer with the same messages. A rule reads the fields it is about by their names
 * and returns its failures addressed to those fields; a value of the wrong type is left to
 * the schema. Adding a rule is adding an entry here (the flow lint lists these names).
 */
import type { FieldError } from './field-error.js';
import { checkChildAge, checkGeneralAge, checkParentAge, type Today } from './dates.js';
import { checkParentSurnames } from './parent.js';
import { checkHomePhone, checkMobilePhone } from './phones.js';

export interface FormRuleContext {
  applicationType: 'GENERAL' | 'CHILD';
  /** Now; calendar days are taken in Japan time (dates.ts). */
  today: Today;
  /** What the application has stored so far (every form's answers), for rules across steps. */
  saved: Readonly<Record<string, unknown>>;
}

export type FormRule = (answers: Readonly<Record<string, unknown>>, context: FormRuleContext) => FieldError[];

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A rule about one text field, run only when the field holds text. */
function onText(field: string, check: (value: string, context: FormRuleContext) => string | null): FormRule {
  return (answers, context) => {
    const value = text(answers[field]);
    const message = value === null ? null : check(value, context);
    return message === null ? [] : [{ field, message }];
  };
}

export const formRules = {
  /** birthday: a real date, 18 or over (general applicant). */
  generalApplicantAge: onText('birthday', (value, { today }) => checkGeneralAge(value, today)),
  /** birthday: a real date, born and under 18 (the child). */
  childAge: onText('birthday', (value, { today }) => checkChildAge(value, today)),
  /** birthday: a real date, 18 or over (the parent applying for the child). */
  parentAge: onText('birthday', (value, { today }) => checkParentAge(value, today)),
  /** mobilePhoneNumber: a mobile number in three parts. */
  mobilePhone: onText('mobilePhoneNumber', (value) => checkMobilePhone(value)),
  /** phoneNumber: empty, or a fixed-line number in three parts. */
  homePhone: onText('phoneNumber', (value) => checkHomePhone(value)),
  /** lastName and kanaLastName equal the child's stored ones. */
  parentSurnameMatchesChild: (answers, { saved }) =>
    checkParentSurnames(
      { lastName: text(saved.lastName), kanaLastName: text(saved.kanaLastName) },
      { lastName: text(answers.lastName), kanaLastName: text(answers.kanaLastName) },
    ),
} satisfies Record<string, FormRule>;

export type FormRuleName = keyof typeof formRules;
export const formRuleNames = Object.keys(formRules) as FormRuleName[];

/** Every failure of the named rules, in the order named (unknown names were refused by the lint). */
export function runFormRules(names: readonly string[], answers: Readonly<Record<string, unknown>>, context: FormRuleContext): FieldError[] {
  return names.flatMap((name) => (Object.hasOwn(formRules, name) ? formRules[name as FormRuleName](answers, context) : []));
}
