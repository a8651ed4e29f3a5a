import { eq } from 'drizzle-orm';
import type { Database } from '../db/index.js';
import { applications } from '../db/schema.js';
import { toJstIso } from '../time.js';
import { storedDocuments } from './documents.js';

/**
 * What an application has stored, as the browser and the named rules see it: the columns of
 * the steps that have their own routes, and every document of the generic engine's forms
 * (migration 0005) merged in by field name, plus the documents themselves by form.
 */

/** utilizationPurpose as stored (comma-joined) -> the list the form's checkboxes need. */
export function purposeList(joined: string | null): string[] {
  return joined ? joined.split(',').filter((value) => value !== '') : [];
}

/**
 * The columns the browser receives, named one by one: a column a later migration adds (a
 * secret, a provider's reference) stays on the server until it is listed here. (The generic
 * engine's documents are sent whole: they hold only what their schema declares.)
 */
const visible = {
  bankCode: applications.bankCode,
  applicationType: applications.applicationType,
  mailAddress: applications.mailAddress,
  lastName: applications.lastName,
  firstName: applications.firstName,
  kanaLastName: applications.kanaLastName,
  kanaFirstName: applications.kanaFirstName,
  gender: applications.gender,
  birthday: applications.birthday,
  eraBirthday: applications.eraBirthday,
  mobilePhoneNumber: applications.mobilePhoneNumber,
  phoneNumber: applications.phoneNumber,
  postalNumber: applications.postalNumber,
  addressCode: applications.addressCode,
  addressPrefecture: applications.addressPrefecture,
  addressMunicipality: applications.addressMunicipality,
  addressSection: applications.addressSection,
  addressChome: applications.addressChome,
  kanaAddressPrefecture: applications.kanaAddressPrefecture,
  kanaAddressMunicipality: applications.kanaAddressMunicipality,
  kanaAddressSection: applications.kanaAddressSection,
  kanaAddressChome: applications.kanaAddressChome,
  address: applications.address,
  kanaAddress: applications.kanaAddress,
  subAddress: applications.subAddress,
  kanaSubAddress: applications.kanaSubAddress,
  tempAddressPrefecture: applications.tempAddressPrefecture,
  tempAddress: applications.tempAddress,
  kanaTempAddress: applications.kanaTempAddress,
  utilizationPurpose: applications.utilizationPurpose,
  utilizationPurposeOther: applications.utilizationPurposeOther,
  distanceTransactionReason: applications.distanceTransactionReason,
  occupationId: applications.occupationId,
  occupationName: applications.occupationName,
  occupationOther: applications.occupationOther,
  workplaceId: applications.workplaceId,
  workplaceCode: applications.workplaceCode,
  workplaceName: applications.workplaceName,
  workplacePhoneNumber: applications.workplacePhoneNumber,
  invitationCode: applications.invitationCode,
  existedAccountBranchCode: applications.existedAccountBranchCode,
  existedAccountNumber: applications.existedAccountNumber,
  applicationNumber: applications.applicationNumber,
  applicationCompletedAt: applications.applicationCompletedAt,
};

/** The names `application` gives to columns: a form's field or labelAs may not take one (the flow lint). */
export const COLUMN_ANSWER_NAMES: readonly string[] = [...Object.keys(visible), 'utilizationPurposeList'];

export interface StoredAnswers {
  /** Every column of `visible` and every document's answers, by field name. */
  application: Record<string, unknown>;
  /** The generic engine's documents: form → answers. */
  forms: Record<string, Record<string, unknown>>;
}

export async function storedAnswersOf(db: Database, applicationId: string): Promise<StoredAnswers | undefined> {
  const [row] = await db.select(visible).from(applications).where(eq(applications.id, applicationId)).limit(1);
  if (!row) return undefined;
  const forms = await storedDocuments(db, applicationId);
  const documents = Object.values(forms).reduce<Record<string, unknown>>((merged, answers) => ({ ...merged, ...answers }), {});
  return {
    application: {
      // First: a document never hides a column (the lint also refuses a form field named like one).
      ...documents,
      ...row,
      utilizationPurposeList: purposeList(row.utilizationPurpose),
      applicationCompletedAt: row.applicationCompletedAt ? toJstIso(row.applicationCompletedAt) : null,
    },
    forms,
  };
}
