import { eq, sql, type SQLWrapper, type WithSubquery } from 'drizzle-orm';
import type { Database } from '../db/index.js';
import { qualified } from '../db/qualified.js';
import { applicationForms, applications, documents, verificationRecords, type ApplicationType, type SubjectRole } from '../db/schema.js';
import { VERIFICATION_METHODS, type VerificationMethod } from '../../domain/identity-check-methods.js';

/** The session whose check the provider has just approved. */
export interface ApprovedCheck {
  sessionId: number;
  applicationId: string;
  applicationType: ApplicationType;
  provider: string;
  providerSessionId: string;
  method: VerificationMethod;
  /** What the provider returned with its approval (its result, or the claims of an OIDC check). */
  evidence: Record<string, unknown>;
}

/** The particulars of a person a record keeps, by the form fields they were entered in. */
const subjectFields = ['lastName', 'firstName', 'kanaLastName', 'kanaFirstName', 'birthday', 'gender', 'address', 'subAddress', 'relationship'];

function particulars(answers: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(subjectFields.filter((field) => answers?.[field] !== undefined).map((field) => [field, answers?.[field]]));
}

type NewRecord = typeof verificationRecords.$inferInsert;

/** The forms a record takes the particulars from, form → answers, as a statement on `applications` returns them. */
const subjectFormsOfRow = sql<Record<string, Record<string, unknown>> | null>`(select json_object_agg(${qualified(applicationForms.form)}, ${qualified(applicationForms.answers)}) from ${applicationForms} where ${qualified(applicationForms.applicationId)} = ${qualified(applications.id)} and ${qualified(applicationForms.form)} in ('personal', 'parent'))`;

/** What an approval's records are made of besides the check: read before the decision (approvalInputs). */
export interface ApprovalInputs {
  bankCode: string;
  /** The forms with the particulars, form → answers. */
  answers: Record<string, Record<string, unknown>>;
  /** CHILD: the uploaded documents as the child's record refers to them. */
  documents: Record<string, unknown>[] | null;
}

/**
 * What an approval's records take from the application, as columns of a statement that has
 * `applications` in its FROM (ekyc/callbacks.ts reads them with the session): the bank and the
 * two forms with the particulars. Read before the decision is written, which is sound because
 * none of it can change once the PIN is set (forms/documents.ts stores no step after it;
 * step-lock.ts) and an identity check is only started after it (routes/ekyc.ts): the answers
 * read now are the ones the decision's statement would read.
 */
export const approvalColumns = { bankCode: applications.bankCode, forms: subjectFormsOfRow };

/**
 * The inputs of approvalRecords from those columns and, for CHILD, the documents (a statement
 * of their own), read at a moment of the callback as they always were: the decision's
 * transaction that used to read them locked none of them.
 */
export async function approvalInputs(db: Database, read: { bankCode: string; forms: Record<string, Record<string, unknown>> | null }, check: Pick<ApprovedCheck, 'applicationId' | 'applicationType'>): Promise<ApprovalInputs> {
  return {
    bankCode: read.bankCode,
    answers: read.forms ?? {},
    documents: check.applicationType === 'CHILD' ? await documentReferences(db, check.applicationId) : null,
  };
}

/**
 * The verification records (確認記録) of an approved check. GENERAL: the applicant. CHILD: the
 * parent who applied for the child (the provider's check) and the child (the images of their
 * documents, kept by id and SHA-256 so the record proves which image was seen).
 */
export function approvalRecords(check: ApprovedCheck, inputs: ApprovalInputs, now: Date): NewRecord[] {
  const { answers } = inputs;
  const base = {
    bankCode: inputs.bankCode,
    applicationId: check.applicationId,
    applicationType: check.applicationType,
    ekycSessionId: check.sessionId,
    provider: check.provider,
    providerReference: check.providerSessionId,
    verifiedAt: now,
    recordedAt: now,
  };
  const checked = (subjectRole: SubjectRole, subject: Record<string, unknown>): NewRecord => ({
    ...base,
    subjectRole,
    subject,
    method: check.method,
    evidence: check.evidence,
  });
  return check.applicationType === 'GENERAL'
    ? [checked('APPLICANT', particulars(answers.personal))]
    : [
        checked('REPRESENTATIVE', particulars(answers.parent)),
        {
          ...base,
          subjectRole: 'CHILD',
          subject: particulars(answers.personal),
          method: VERIFICATION_METHODS.CHILD_DOCUMENT_IMAGES,
          evidence: { documents: inputs.documents ?? [] },
        },
      ];
}

/** A CTE that decides a session: the rows it changed, with the session's id and application. */
type Decided = WithSubquery & { id: SQLWrapper; applicationId: SQLWrapper };

/** The records as the insert of withDecision takes them: one JSON array, typed column by column. */
export function recordsJson(records: NewRecord[]): string {
  return JSON.stringify(
    records.map((record) => ({
      bank_code: record.bankCode,
      application_id: record.applicationId,
      application_type: record.applicationType,
      subject_role: record.subjectRole,
      subject: record.subject,
      method: record.method,
      provider: record.provider,
      provider_reference: record.providerReference,
      evidence: record.evidence,
      verified_at: record.verifiedAt,
      recorded_at: record.recordedAt,
    })),
  );
}

/**
 * The decision and its records in one statement (ADR 0041): the records (`records`, the JSON of
 * recordsJson, or a placeholder for it) are inserted from the rows `decided` (a data-modifying
 * CTE) changed, so they exist exactly when the session was approved by this statement (once:
 * only the first decision changes it), written atomically with it. It returns the ids of the
 * records written (none: the session was not changed).
 */
export function withDecision(db: Database, decided: Decided, records: SQLWrapper) {
  // Written out: drizzle's INSERT … SELECT would name the identity column too.
  const recorded = db.$with('recorded', { id: verificationRecords.id }).as(
    sql`insert into ${verificationRecords} (bank_code, application_id, application_type, ekyc_session_id, subject_role, subject, method, provider, provider_reference, evidence, verified_at, recorded_at)
      select r.bank_code, ${decided.applicationId}, r.application_type, ${decided.id}, r.subject_role, r.subject, r.method, r.provider, r.provider_reference, r.evidence, r.verified_at, r.recorded_at
      from ${decided} join jsonb_to_recordset(${records}::jsonb) as r(bank_code varchar, application_id uuid, application_type varchar, subject_role varchar, subject jsonb, method varchar, provider varchar, provider_reference varchar, evidence jsonb, verified_at timestamptz, recorded_at timestamptz)
      on r.application_id = ${decided.applicationId}
      returning id`,
  );
  return db.with(decided, recorded).select({ id: recorded.id }).from(recorded);
}

/** The uploaded documents as a record refers to them: id, type, size, SHA-256 of the stored image. */
async function documentReferences(db: Database, applicationId: string): Promise<Record<string, unknown>[]> {
  return db
    .select({
      id: documents.id,
      type: documents.type,
      contentType: documents.contentType,
      byteSize: documents.byteSize,
      sha256: sql<string>`encode(sha256(${documents.content}), 'hex')`,
      uploadedAt: documents.createdAt,
    })
    .from(documents)
    .where(eq(documents.applicationId, applicationId))
    .orderBy(documents.type);
}
