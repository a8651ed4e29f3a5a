import { sql, type Column } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { EKYC_STATUS, hasChildDocuments, type DocumentType, type EkycStatus } from '../../domain/ekyc.js';
import { qualified } from '../db/qualified.js';
import { applicationForms, applicationPins, applications, documents, ekycSessions, type ApplicationType } from '../db/schema.js';
import type { FormCatalogue } from '../forms/catalogue.js';
import { missingForms } from '../forms/stored.js';
import { httpMessages } from '../http-messages.js';

/**
 * What completion checks of an application (POST /api/application-complete): the stored
 * forms, the PIN, the newest identity check, the uploads. Read as one jsonb value by an
 * expression on a statement of `applications`, so that the session check reads it with the
 * session (plugins/auth.ts) and the completing statement (completion/complete.ts) compares it
 * with what was judged: the same expression, so equal values mean nothing the judgement read
 * has changed. Lists are sorted, so equal facts give equal values.
 */
export interface CompletionFacts {
  /** The forms whose document is stored. */
  forms: string[];
  pinSet: boolean;
  /** The newest identity check, or null before the first. */
  ekyc: { id: number; status: EkycStatus; supplement: boolean } | null;
  /** The types of the uploaded documents (documents.type, the column's enum DOCUMENT_TYPES). */
  uploaded: DocumentType[];
}

const ofThisApplication = (applicationId: Column) => sql`${qualified(applicationId)} = ${qualified(applications.id)}`;

/** `column` of the application's rows in `table`, sorted, as a jsonb array (empty when none). */
const sortedList = (column: Column, table: PgTable, applicationId: Column) =>
  sql`coalesce((select jsonb_agg(${qualified(column)} order by ${qualified(column)}) from ${table} where ${ofThisApplication(applicationId)}), '[]'::jsonb)`;

/** The expression: CompletionFacts of the `applications` row of the statement it is put in. */
export const completionFactsOfRow = sql<CompletionFacts>`jsonb_build_object(
  'forms', ${sortedList(applicationForms.form, applicationForms, applicationForms.applicationId)},
  'pinSet', exists (select 1 from ${applicationPins} where ${ofThisApplication(applicationPins.applicationId)}),
  'ekyc', (select jsonb_build_object('id', ${qualified(ekycSessions.id)}, 'status', ${qualified(ekycSessions.status)}, 'supplement', ${qualified(ekycSessions.supplement)}) from ${ekycSessions} where ${ofThisApplication(ekycSessions.applicationId)} order by ${qualified(ekycSessions.id)} desc limit 1),
  'uploaded', ${sortedList(documents.type, documents, documents.applicationId)})`;

/**
 * What the completion route reads with the session check (requireApplicationWithCompletion):
 * the number and time when already completed, the address of the mail, the facts.
 */
export const completionStateFields = {
  applicationNumber: applications.applicationNumber,
  applicationCompletedAt: applications.applicationCompletedAt,
  mailAddress: applications.mailAddress,
  completionFacts: completionFactsOfRow,
};

/** What completionStateFields returned. */
export interface CompletionState {
  applicationNumber: string | null;
  applicationCompletedAt: Date | null;
  mailAddress: string | null;
  completionFacts: CompletionFacts;
}

/**
 * Why the application cannot be completed yet (the 409's message), or null. `requiredForms`:
 * its flow's forms before the PIN (forms/stored.ts).
 */
export function completionBlocker(
  facts: CompletionFacts,
  applicationType: ApplicationType,
  requiredForms: readonly string[],
  catalogue: FormCatalogue,
): string | null {
  if (missingForms(requiredForms, { documents: new Set(facts.forms) }, catalogue).length > 0) return httpMessages.stepsIncomplete;
  if (!facts.pinSet) return httpMessages.pinNotSet;
  if (facts.ekyc?.status !== EKYC_STATUS.bankerProcessing) return httpMessages.ekycNotApproved;
  const uploaded = new Set(facts.uploaded);
  if (facts.ekyc.supplement && !uploaded.has('CURRENT_ADDRESS_DOCUMENT')) return httpMessages.supplementMissing;
  if (applicationType === 'CHILD' && !hasChildDocuments(uploaded)) return httpMessages.documentsMissing;
  return null;
}
