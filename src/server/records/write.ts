import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/index.js';
import { qualified } from '../db/qualified.js';
import { applicationForms, applications, documents, verificationRecords, type ApplicationType, type SubjectRole } from '../db/schema.js';
import { VERIFICATION_METHODS, type VerificationMethod } from '../../domain/identity-check-methods.js';

/** The transaction handle drizzle passes to db.transaction's callback. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

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

/**
 * Writes the verification records (確認記録) of an approved check, in the transaction that
 * records the approval (ekyc/callbacks.ts), so a record exists exactly when the session is
 * approved: once, since only the first approval changes the session. GENERAL: the applicant.
 * CHILD: the parent who applied for the child (the provider's check) and the child (the
 * images of their documents, kept by id and SHA-256 so the record proves which image was seen).
 */
export async function recordApproval(tx: Transaction, check: ApprovedCheck, now: Date): Promise<void> {
  // The bank and the two forms with the particulars, in one statement.
  const [application] = await tx
    .select({ bankCode: applications.bankCode, forms: subjectFormsOfRow })
    .from(applications)
    .where(eq(applications.id, check.applicationId));
  if (!application) throw new Error('an approved identity check without its application');
  const answers = application.forms ?? {};
  const base = {
    bankCode: application.bankCode,
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
  const rows: NewRecord[] =
    check.applicationType === 'GENERAL'
      ? [checked('APPLICANT', particulars(answers.personal))]
      : [
          checked('REPRESENTATIVE', particulars(answers.parent)),
          {
            ...base,
            subjectRole: 'CHILD',
            subject: particulars(answers.personal),
            method: VERIFICATION_METHODS.CHILD_DOCUMENT_IMAGES,
            evidence: { documents: await documentReferences(tx, check.applicationId) },
          },
        ];
  await tx.insert(verificationRecords).values(rows);
}

/** The uploaded documents as a record refers to them: id, type, size, SHA-256 of the stored image. */
async function documentReferences(tx: Transaction, applicationId: string): Promise<Record<string, unknown>[]> {
  return tx
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
