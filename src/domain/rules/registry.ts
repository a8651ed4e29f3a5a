/**
 * The rules a schema can name in its `x-step.rules`, each written once and run by the page
 * (after its precompiled validator) and by the server's form-step handler (after ajv), so
 * both answer with the same messages. A rule reads the fields it is about by their names
 * and returns its failures addressed to those fields; a value of the wrong type is left to
 * the schema. Adding a rule is adding an entry here (the flow lint lists these names).
 */
import { messages } from '../messages.js';
import type { FieldError } from './field-error.js';
import { checkPurposeSelection, needsDistanceReason, type DistanceReasonBank } from './address.js';
import { checkChildAge, checkGeneralAge, checkParentAge, type Today } from './dates.js';
import { nameRuleErrors, workplaceRuleErrors } from './forms.js';
import { checkParentSurnames } from './parent.js';
import { checkHomePhone, checkMobilePhone } from './phones.js';
import { OTHER_OCCUPATION_NAME } from './workplace.js';

/** What the rules read of the applicant's bank (BankSettings has it all). */
export interface RuleBank extends DistanceReasonBank {
  /** The bank's code (banks/<code>): the application's bank. */
  code: string;
  UTILIZATION_PURPOSE_LIST: readonly { value: string }[];
}

/**
 * One choice a field's x-options source offers this applicant: its value, its label, and what
 * the rules may read of it (an occupation's workplaceRequired).
 */
export interface OfferedOption {
  value: unknown;
  label: string;
  data?: Readonly<Record<string, unknown>>;
}

export interface FormRuleContext {
  applicationType: 'GENERAL' | 'CHILD';
  bank: RuleBank;
  /** Now; calendar days are taken in Japan time (dates.ts). */
  today: Today;
  /** What the application has stored so far (every form's answers), for rules across steps. */
  saved: Readonly<Record<string, unknown>>;
  /** The choices each x-options field offers this applicant, as the page listed them. */
  offered?: Readonly<Record<string, readonly OfferedOption[]>>;
}

export type FormRule = (answers: Readonly<Record<string, unknown>>, context: FormRuleContext) => FieldError[];

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function textList(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? (value as string[]) : null;
}

/**
 * The prefecture the applicant lives in, as the answers say it: the temporary address's when
 * no address matched, else the searched one's (the server has put its own there by then).
 */
function prefectureOf(answers: Readonly<Record<string, unknown>>): string | null {
  if (answers.noMatchingAddress === true) return text(answers.tempAddressPrefecture);
  return text(answers.addressPrefecture) ?? text(answers.tempAddressPrefecture);
}

/** The option the answers chose for a field, among those it offers (none for a value not offered). */
function chosenOption(field: string, answers: Readonly<Record<string, unknown>>, context: FormRuleContext): OfferedOption | undefined {
  const value = answers[field];
  return value === undefined ? undefined : context.offered?.[field]?.find((option) => String(option.value) === String(value));
}

/** The chosen occupation (occupationId among the occupations offered), as the workplace rules read it. */
function chosenOccupation(answers: Readonly<Record<string, unknown>>, context: FormRuleContext) {
  const chosen = chosenOption('occupationId', answers, context);
  return chosen && { name: chosen.label, workplaceRequired: chosen.data?.workplaceRequired === true };
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
  personNames: (answers) => nameRuleErrors(answers),
  applicantAge: onText('birthday', (value, { applicationType, today }) =>
    applicationType === 'CHILD' ? checkChildAge(value, today) : checkGeneralAge(value, today),
  ),
  generalApplicantAge: onText('birthday', (value, { today }) => checkGeneralAge(value, today)),
  childAge: onText('birthday', (value, { today }) => checkChildAge(value, today)),
  parentAge: onText('birthday', (value, { today }) => checkParentAge(value, today)),
  mobilePhone: onText('mobilePhoneNumber', (value) => checkMobilePhone(value)),
  homePhone: onText('phoneNumber', (value) => checkHomePhone(value)),
  parentSurnameMatchesChild: (answers, { saved }) =>
    checkParentSurnames(
      { lastName: text(saved.lastName), kanaLastName: text(saved.kanaLastName) },
      { lastName: text(answers.lastName), kanaLastName: text(answers.kanaLastName) },
    ),
  applicationBank: (answers, { bank }) => (answers.bankCode === undefined || answers.bankCode === bank.code ? [] : [{ field: 'bankCode', message: messages.badRequest }]),
  purposes: (answers, { bank }) => {
    const selection = checkPurposeSelection(textList(answers.utilizationPurpose), bank.UTILIZATION_PURPOSE_LIST.map((purpose) => purpose.value));
    return selection === null ? [] : [{ field: 'utilizationPurpose', message: selection }];
  },
  workplace: (answers, context) => (chosenOccupation(answers, context) ? workplaceRuleErrors(answers) : []),
} satisfies Record<string, FormRule>;

/** What each rule checks, for the lint's lists and the format's meta-schema (schemas/format/form.schema.json). */
export const formRuleDescriptions: Record<FormRuleName, string> = {
  personNames: 'lastName, firstName, kanaLastName: characters the core system cannot store, and the combined lengths (24, kana 48)',
  applicantAge: 'birthday: the general applicant 18 or over, the child born and under 18, by the application type',
  generalApplicantAge: 'birthday: 18 or over (the general applicant)',
  childAge: 'birthday: born and under 18 (the child)',
  parentAge: 'birthday: 18 or over (the parent applying for the child)',
  mobilePhone: 'mobilePhoneNumber: a mobile number 0[5789]0-xxxx-xxxx',
  homePhone: 'phoneNumber: empty, or a fixed-line number in three parts',
  parentSurnameMatchesChild: 'lastName and kanaLastName equal the child’s stored ones',
  applicationBank: 'bankCode is the application’s own bank',
  purposes: 'utilizationPurpose: one or more of the bank’s list',
  workplace: 'workplaceName, workplacePhoneNumber, the existing account: the name’s symbols and numerals, the phone’s shape, the account as a pair',
};

export type FormRuleName = keyof typeof formRules;
export const formRuleNames = Object.keys(formRules) as FormRuleName[];

/**
 * The failures of the named rules, at most one per field: the first in the order named
 * (unknown names were refused by the lint).
 */
export function runFormRules(names: readonly string[], answers: Readonly<Record<string, unknown>>, context: FormRuleContext): FieldError[] {
  const all = names.flatMap((name) => (Object.hasOwn(formRules, name) ? formRules[name as FormRuleName](answers, context) : []));
  return all.filter((error, index) => all.findIndex((other) => other.field === error.field) === index);
}

/**
 * What a field's `x-when` can name for a condition the answers alone cannot say: a field
 * whose condition does not hold is not asked (the page hides it, the server drops it).
 */
export const formConditions = {
  /** The bank asks the reason of an applicant outside its home prefecture. */
  distanceReasonAsked: (answers, { bank }) => needsDistanceReason(bank, prefectureOf(answers)),
  /** The chosen occupation is その他, whose text is asked. */
  otherOccupationChosen: (answers, context) => chosenOccupation(answers, context)?.name === OTHER_OCCUPATION_NAME,
  /** The chosen occupation requires a workplace (its name and phone), per the occupation master. */
  workplaceRequired: (answers, context) => chosenOccupation(answers, context)?.workplaceRequired === true,
  /** A workplace code was applied: the workplace's name and phone are the master's (workplaceId is set only by 「適用」). */
  workplaceCodeApplied: (answers) => typeof answers.workplaceId === 'number',
  /** The applied workplace lets its staff hold another account (the server derives this from its master data). */
  existingAccountAsked: (answers) => answers.multipleAccountsPermitted === true,
} satisfies Record<string, (answers: Readonly<Record<string, unknown>>, context: FormRuleContext) => boolean>;

export type FormConditionName = keyof typeof formConditions;

/** When each named condition holds, for the lint's lists and the format's meta-schema. */
export const formConditionDescriptions: Record<FormConditionName, string> = {
  distanceReasonAsked: 'the bank asks a distance-transaction reason of an applicant living outside its home prefecture (bank.json), and the address is in another prefecture',
  otherOccupationChosen: 'the chosen occupationId is その他 (its free text is asked)',
  workplaceRequired: 'the chosen occupationId requires a workplace (the occupation master’s workplaceRequired)',
  workplaceCodeApplied: 'a workplace code was applied with 「適用」 (workplaceId is set)',
  existingAccountAsked: 'the applied workplace lets its staff hold another account (multipleAccountsPermitted, from the master data)',
};
export const formConditionNames = Object.keys(formConditions) as FormConditionName[];
