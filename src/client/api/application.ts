import { FetchError } from 'ofetch';
import type { FieldError } from '../../domain/rules/field-error';
import { api } from './client';

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

/** What the applicant has entered so far (an empty record before the first step is saved). */
export async function loadApplication(): Promise<ApplicationRecord> {
  const { application } = await api<ApplicationsAnswer>('/applications');
  return application ?? {};
}

/** The application and, in the child flow, its parent (null in the general flow), with each stored form's answers. */
export async function loadApplicationWithParent(): Promise<{
  application: ApplicationRecord;
  parent: ApplicationParentRecord | null;
  forms: NonNullable<ApplicationsAnswer['forms']>;
}> {
  const { application, applicationParent, forms } = await api<ApplicationsAnswer>('/applications');
  const parent = applicationParent && Object.keys(applicationParent).length > 0 ? (applicationParent as ApplicationParentRecord) : null;
  return { application: application ?? {}, parent, forms: forms ?? {} };
}

/** The field errors of a 400 answer ({ message, errors: [{ field, message }] }), or none. */
export function fieldErrorsOfAnswer(error: unknown): FieldError[] {
  const data: unknown = error instanceof FetchError ? error.data : undefined;
  const errors: unknown = data && typeof data === 'object' && 'errors' in data ? data.errors : undefined;
  if (!Array.isArray(errors)) return [];
  return errors.filter(
    (entry): entry is FieldError =>
      !!entry && typeof entry === 'object' && typeof (entry as FieldError).field === 'string' && typeof (entry as FieldError).message === 'string',
  );
}
