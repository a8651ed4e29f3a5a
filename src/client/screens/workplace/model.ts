import { MULTIPLE_ACCOUNTS_PERMITTED, type Occupation, type WorkplaceLookup } from '../../../domain/masterdata';
import { messages } from '../../../domain/messages';
import type { WorkplaceBody } from '../../../domain/steps';
import { isWorkplaceCodeShape, normalizeWorkplaceCode, padExistingAccount, splitPhone, type FieldError, offeredOccupations } from '../../../domain/rules';
import type { ApplicationRecord } from '../../api/application';
import { api, statusOf } from '../../api/client';
import type { FormData } from '../../forms/SchemaForm';
import type { Choice } from '../../forms/widgets/choices';
import type { Answer } from '../../forms/widgets/ExistingAccountWidget';
import { cookies } from '../../platform/session';
import { codeErrors, invitationErrors, openInvitation, verifiedInvitation, type CodeState } from './invitation';

export { MULTIPLE_ACCOUNTS_PERMITTED, type Occupation, type WorkplaceLookup } from '../../../domain/masterdata';

export { EMPTY_CODE, type CodeState } from './invitation';

/**
 * The workplace step's own state beside its form (drawn and checked from
 * schemas/workplace.schema.json by useFormStep): the workplace code and the workplace it
 * applies, the invitation code, and the existing-account question.
 */

export interface ExistingAccountState {
  answer: Answer | undefined;
  branch: string;
  account: string;
}

/** Everything of the step that is not a schema field: the two codes and the existing account. */
export interface StepState {
  workplaceCode: CodeState;
  /** The workplace of the applied code (null unless workplaceCode is verified). */
  workplace: WorkplaceLookup | null;
  invitation: CodeState;
  existing: ExistingAccountState;
}

export const NO_EXISTING_ACCOUNT: ExistingAccountState = { answer: undefined, branch: '', account: '' };

/** The occupations of an adult, in the select's order (the parent's page; /workplace has them from its schema's x-options). */
export function generalOccupations(list: readonly Occupation[]): Occupation[] {
  return offeredOccupations(list, { kind: 'adult' });
}

/** The workplace of a code, or null when there is none: a code not 6 or 8 long is not asked for. */
export async function lookupWorkplace(code: string): Promise<WorkplaceLookup | null> {
  if (!isWorkplaceCodeShape(code)) return null;
  try {
    return await api<WorkplaceLookup>('/workplace', { query: { code } });
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}

/** The applied workplace, while its code stays verified. */
export function appliedWorkplace(state: StepState): WorkplaceLookup | null {
  return state.workplaceCode.status === 'verified' ? state.workplace : null;
}

/** The workplace name and phone of an applied workplace, as the form shows them (none: emptied). */
export function workplaceAnswers(workplace: WorkplaceLookup | null): FormData {
  return { workplaceName: workplace?.name, workplacePhoneNumber: workplace?.phoneNumber };
}

export function isPermitted(state: StepState): boolean {
  return appliedWorkplace(state)?.multipleAccounts === MULTIPLE_ACCOUNTS_PERMITTED;
}

/** Whether the chosen occupation requires a workplace (its choice's data, from the occupations source). */
export function workplaceRequired(occupationId: unknown, occupations: readonly Choice[]): boolean {
  return occupations.find((choice) => String(choice.value) === String(occupationId))?.data?.workplaceRequired === true;
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export type { WorkplaceBody } from '../../../domain/steps';

/**
 * What is sent, from the answers as the form step posts them (normalised, the その他 text only
 * when asked): the applied workplace's own name, phone and id; the invitation code only when
 * verified; the existing account zero-padded, or null when the workplace does not permit one
 * or the applicant has none.
 */
export function bodyOf(answers: FormData, state: StepState): WorkplaceBody {
  const workplace = appliedWorkplace(state);
  const account = isPermitted(state) && state.existing.answer === 'yes' ? padExistingAccount(state.existing.branch, state.existing.account) : null;
  return {
    occupationId: Number(answers.occupationId),
    occupationOther: textOf(answers.occupationOther) || null,
    workplaceName: workplace ? workplace.name : textOf(answers.workplaceName) || null,
    workplacePhoneNumber: workplace ? workplace.phoneNumber : textOf(answers.workplacePhoneNumber) || null,
    workplaceId: workplace ? workplace.id : null,
    invitationCode: verifiedInvitation(state.invitation),
    existedAccountBranchCode: account?.branchCode ?? null,
    existedAccountNumber: account?.accountNumber ?? null,
  };
}

/**
 * The rules of the step beyond the schema: the schema's named rules (`shared`: the その他 text,
 * name and phone required by the occupation, forbidden symbols, the account pair), run on the
 * answers with the applied workplace and the existing account as they will be sent, and the
 * screen's own (codes to apply or clear, the existing-account question to answer).
 */
export function ruleErrorsOf(answers: FormData, state: StepState, shared: (answers: FormData) => FieldError[]): FieldError[] {
  const errors: FieldError[] = [];
  const add = (field: string, message: string | null) => {
    if (message !== null) errors.push({ field, message });
  };
  for (const message of codeErrors(state.workplaceCode, messages.workplaceNotFound)) add('workplaceId', message);

  const workplace = appliedWorkplace(state);
  const permitted = isPermitted(state);
  const typedAccount = permitted && state.existing.answer === 'yes';
  errors.push(
    ...shared({
      ...answers,
      ...(workplace ? workplaceAnswers(workplace) : {}),
      // As the server derives it from the applied workplace: the existing account is asked (x-when existingAccountAsked).
      multipleAccountsPermitted: permitted,
      existedAccountBranchCode: typedAccount ? state.existing.branch : undefined,
      existedAccountNumber: typedAccount ? state.existing.account : undefined,
    }),
  );
  if (permitted && state.existing.answer === undefined) add('existedAccountBranchCode', messages.selectRequired);
  if (typedAccount && state.existing.branch.trim() === '' && state.existing.account.trim() === '') {
    add('existedAccountBranchCode', messages.existingAccount);
  }
  for (const message of invitationErrors(state.invitation)) add('invitationCode', message);
  return errors;
}

/** The step as it opens: what was saved, or else the codes of the landing URL applied. */
export interface InitialStep {
  data: FormData;
  state: StepState;
  /** Neither code came with the landing URL (nor was one saved): remind the applicant. */
  remind: boolean;
  /** A stored workplace phone that does not split into three parts (spec section 8: error page). */
  brokenPhone: boolean;
}

/**
 * Opens the step from the stored application and the occupations offered. Back from /branch
 * (an occupation was saved): what was saved, the workplace code looked up again for its
 * current name and whether it permits an existing account. First visit: the workplace and
 * invitation codes of the landing URL (kept 7 days in cookies) are filled in and applied
 * once, as if the applicant had pressed 「適用」.
 */
export async function loadWorkplaceStep(saved: ApplicationRecord, occupations: readonly Choice[]): Promise<InitialStep> {
  const returning = saved.occupationId !== null && saved.occupationId !== undefined;
  const fromCookies = { workplace: cookies.get('workplace') ?? '', invitation: cookies.get('invitation') ?? '' };
  const workplaceText = normalizeWorkplaceCode(returning ? (saved.workplaceCode ?? '') : fromCookies.workplace);

  const [workplace, invitation] = await Promise.all([
    workplaceText ? lookupWorkplace(workplaceText) : Promise.resolve(null),
    openInvitation(returning, saved.invitationCode, fromCookies.invitation),
  ]);

  const state: StepState = {
    workplaceCode: { text: workplaceText, status: workplaceText ? (workplace ? 'verified' : 'notFound') : 'unverified', busy: false },
    workplace,
    invitation,
    existing: existingOf(saved, returning, workplace),
  };
  const data = initialDataOf(saved, occupations, workplace);
  const phone = typeof data.workplacePhoneNumber === 'string' ? data.workplacePhoneNumber : null;
  return {
    data,
    state,
    remind: !fromCookies.workplace && !fromCookies.invitation && !(returning && (saved.workplaceCode || saved.invitationCode)),
    brokenPhone: phone !== null && splitPhone(phone) === null,
  };
}

function existingOf(saved: ApplicationRecord, returning: boolean, workplace: WorkplaceLookup | null): ExistingAccountState {
  if (!returning || workplace?.multipleAccounts !== MULTIPLE_ACCOUNTS_PERMITTED) return NO_EXISTING_ACCOUNT;
  if (saved.existedAccountBranchCode && saved.existedAccountNumber) {
    return { answer: 'yes', branch: saved.existedAccountBranchCode, account: saved.existedAccountNumber };
  }
  return { ...NO_EXISTING_ACCOUNT, answer: 'no' };
}

function initialDataOf(saved: ApplicationRecord, occupations: readonly Choice[], workplace: WorkplaceLookup | null): FormData {
  const occupation = occupations.find((choice) => choice.value === saved.occupationId);
  const data: FormData = {};
  if (occupation) data.occupationId = occupation.value;
  if (saved.occupationOther) data.occupationOther = saved.occupationOther;
  const name = workplace?.name ?? saved.workplaceName;
  const phone = workplace?.phoneNumber ?? saved.workplacePhoneNumber;
  if (name) data.workplaceName = name;
  if (phone) data.workplacePhoneNumber = phone;
  return data;
}
