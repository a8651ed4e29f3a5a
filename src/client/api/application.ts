import type { FieldError } from '../../domain/rules/field-error';
import { session } from '../platform/session';
import { api, ApiError } from './client';

/**
 * The application as GET /api/applications answers it (spec section 3, 'Application'): every
 * field is null or absent until its step has been saved. Only the fields the browser reads by
 * name are typed: a generic form step's answers are read from its schema (and `forms`).
 */
export interface ApplicationRecord {
  bankCode?: string | null;
  applicationType?: 'GENERAL' | 'CHILD' | null;
  mailAddress?: string | null;
  /** The child's surnames, which the parent's must equal (the parent's page). */
  lastName?: string | null;
  kanaLastName?: string | null;
  occupationId?: number | null;
  occupationName?: string | null;
  occupationOther?: string | null;
  workplaceId?: number | null;
  workplaceCode?: string | null;
  workplaceName?: string | null;
  workplacePhoneNumber?: string | null;
  invitationCode?: string | null;
  existedAccountBranchCode?: string | null;
  existedAccountNumber?: string | null;
  branchCode?: string | null;
  branchName?: string | null;
  sealLess?: boolean | null;
}

/** The parent applying as proxy in the child flow (spec section 3, 'Parent'). */
export type ApplicationParentRecord = {
  lastName?: string | null;
  firstName?: string | null;
  kanaLastName?: string | null;
  kanaFirstName?: string | null;
  birthday?: string | null;
  relationship?: 'FATHER' | 'MOTHER' | null;
  mobilePhoneNumber?: string | null;
  phoneNumber?: string | null;
  proxyApplicationReason?: 'MINOR' | null;
  occupationName?: string | null;
  occupationOther?: string | null;
  workplaceName?: string | null;
  workplacePhoneNumber?: string | null;
};

export interface ApplicationsAnswer {
  application: ApplicationRecord | null;
  applicationParent: Record<string, unknown> | null;
  /**
   * Each stored form's answers as posted (one document per form), with the labels the server
   * added (x-options labelAs, e.g. branchName); empty before the first form is stored.
   */
  forms: Record<string, Record<string, unknown>>;
}

/**
 * A step POST answers what the application then holds, as GET /api/applications would: the
 * page it leads to opens with that answer instead of asking again (ADR 0042). Kept for the
 * next page only, and only for the session that posted it.
 */
let afterStep: { token: string | null; answer: ApplicationsAnswer } | null = null;

export function isApplicationsAnswer(value: unknown): value is ApplicationsAnswer {
  return !!value && typeof value === 'object' && 'application' in value && 'forms' in value;
}

/** The answer of the step just stored (or of the summary just confirmed, or of verify's new application), for the next page. */
export function rememberStepAnswer(answer: ApplicationsAnswer): void {
  afterStep = { token: session.get('authenticationToken'), answer };
}

/** Nothing is handed to the next page (a test's pages do not follow each other). */
export function forgetStepAnswer(): void {
  afterStep = null;
}

/**
 * What a page visit (its history entry's key) opens with: read once per visit. React may start
 * a page's first render over several times before it shows it (a navigation renders in a
 * transition, which each answer's session update interrupts), dropping the state of every
 * try; each try asking GET /api/applications sent a dozen requests per page.
 */
let visit: { key: string; answer: Promise<ApplicationsAnswer> } | null = null;
export function applicationForVisit(key: string): Promise<ApplicationsAnswer> {
  if (visit?.key !== key) visit = { key, answer: readApplication() };
  return visit.answer;
}

/** The visit ended (its page unmounted): coming back to the same history entry reads afresh. */
export function endVisit(key: string): void {
  if (visit?.key === key) visit = null;
}

/** What the applicant has entered so far: the last step's answer when a step was just stored, else read. */
export function readApplication(): Promise<ApplicationsAnswer> {
  const remembered = afterStep;
  afterStep = null;
  if (remembered && remembered.token === session.get('authenticationToken')) return Promise.resolve(remembered.answer);
  return api<ApplicationsAnswer>('/applications');
}

/** The application and, in the child flow, its parent (null in the general flow), with each stored form's answers. */
export async function loadApplicationWithParent(): Promise<{
  application: ApplicationRecord;
  parent: ApplicationParentRecord | null;
  forms: NonNullable<ApplicationsAnswer['forms']>;
  /** The answer as read, to hand to the next page (rememberStepAnswer). */
  answer: ApplicationsAnswer;
}> {
  const answer = await readApplication();
  const { application, applicationParent, forms } = answer;
  const parent = applicationParent && Object.keys(applicationParent).length > 0 ? (applicationParent as ApplicationParentRecord) : null;
  return { application: application ?? {}, parent, forms: forms ?? {}, answer };
}

/** The field errors of a 400 answer ({ message, errors: [{ field, message }] }), or none. */
export function fieldErrorsOfAnswer(error: unknown): FieldError[] {
  const data: unknown = error instanceof ApiError ? error.data : undefined;
  const errors: unknown = data && typeof data === 'object' && 'errors' in data ? data.errors : undefined;
  if (!Array.isArray(errors)) return [];
  return errors.filter(
    (entry): entry is FieldError =>
      !!entry && typeof entry === 'object' && typeof (entry as FieldError).field === 'string' && typeof (entry as FieldError).message === 'string',
  );
}
