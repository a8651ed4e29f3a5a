import { eq, getTableColumns, sql } from 'drizzle-orm';
import { zenginAccountName, toZenginKana } from '../../domain/zengin-kana.js';
import type { Database } from '../db/index.js';
import { oncePerDatabase } from '../db/prepared.js';
import { qualified } from '../db/qualified.js';
import { applicationForms, applications, documents, ekycSessions } from '../db/schema.js';
import { recordsFromJson, recordsJsonOf, type VerificationRecord } from '../records/read.js';
import { toJstIso } from '../time.js';

/**
 * The document handed to the bank for one completed application (ADR 0033): its answers as
 * stored, per form; its documents (the re-encoded images, base64); the identity check; and
 * the verification records; the names and addresses in the form of the bank's core system (Zengin kana). All
 * of it comes in one statement, each part a fragment of its own (below, and the records'
 * in records/read.ts).
 */

export const DELIVERY_FORMAT = 'kouza-application/1';

export interface IdentityCheck {
  provider: string;
  /** The provider's reference of the check. */
  reference: string;
  /** The eKYC status code (domain/ekyc.ts) of the newest check. */
  status: number;
  supplement: boolean;
  decidedAt: string | null;
}

export interface DeliveredDocument {
  type: string;
  contentType: string;
  width: number;
  height: number;
  /** The stored image, base64. */
  content: string;
}

export interface ApplicationDelivery {
  format: typeof DELIVERY_FORMAT;
  /** Also the Idempotency-Key header: one account per key, however often it arrives. */
  idempotencyKey: string;
  applicationId: string;
  applicationNumber: string;
  bankCode: string;
  applicationType: string;
  completedAt: string;
  mailAddress: string;
  answers: Record<string, Record<string, unknown>>;
  /** Beside each chosen value of `answers`, its label as the applicant read it: form → field → label (a list's in its order). */
  labels: Record<string, Record<string, string | string[]>>;
  /** Names and addresses as the core system takes them; null where a text has no Zengin form. */
  coreSystem: Record<string, string | null>;
  documents: DeliveredDocument[];
  identityCheck: IdentityCheck | null;
  /** The verification records (確認記録) of its approved identity checks, corrections after what they correct (ADR 0034). */
  verificationRecords: VerificationRecord[];
}

/**
 * The newest identity check's outcome and the provider's reference, as the eKYC session holds
 * it, as one json object of a statement on `applications` (decidedAt as PostgreSQL's text).
 */
const identityCheckOfRow = sql<(Omit<IdentityCheck, 'decidedAt'> & { decidedAt: string | null }) | null>`(select json_build_object('provider', ${qualified(ekycSessions.provider)}, 'reference', ${qualified(ekycSessions.providerSessionId)}, 'status', ${qualified(ekycSessions.status)}, 'supplement', ${qualified(ekycSessions.supplement)}, 'decidedAt', ${qualified(ekycSessions.decidedAt)}) from ${ekycSessions} where ${qualified(ekycSessions.applicationId)} = ${qualified(applications.id)} order by ${qualified(ekycSessions.id)} desc limit 1)`;

/** Its answers as stored, form → answers in the order of the forms' names, likewise. */
const answersOfRow = sql<Record<string, Record<string, unknown>> | null>`(select json_object_agg(${qualified(applicationForms.form)}, ${qualified(applicationForms.answers)} order by ${qualified(applicationForms.form)}) from ${applicationForms} where ${qualified(applicationForms.applicationId)} = ${qualified(applications.id)})`;

/** The labels of its chosen values, form → field → label (or labels of a list), likewise. */
const labelsOfRow = sql<Record<string, Record<string, string | string[]>> | null>`(select json_object_agg(${qualified(applicationForms.form)}, ${qualified(applicationForms.labels)} order by ${qualified(applicationForms.form)}) from ${applicationForms} where ${qualified(applicationForms.applicationId)} = ${qualified(applications.id)})`;

/**
 * Its documents in the order of their types, each with its image in base64 (PostgreSQL's encode
 * breaks lines every 76 characters: they go), as one json array; an image not yet imported into
 * the database (migration 0012) has a null content.
 */
const documentsOfRow = sql<(Omit<DeliveredDocument, 'content'> & { content: string | null })[]>`(select coalesce(json_agg(json_build_object('type', ${qualified(documents.type)}, 'contentType', ${qualified(documents.contentType)}, 'width', ${qualified(documents.width)}, 'height', ${qualified(documents.height)}, 'content', translate(encode(${qualified(documents.content)}, 'base64'), E'\n', '')) order by ${qualified(documents.type)}), '[]'::json) from ${documents} where ${qualified(documents.applicationId)} = ${qualified(applications.id)})`;

/**
 * The statement of a delivery's document, prepared (db/prepared.ts): every completed
 * application is delivered once. Placeholder: applicationId.
 */
const deliveryStatementOf = oncePerDatabase((db) =>
  db
    .select({
      ...getTableColumns(applications),
      answers: answersOfRow,
      labels: labelsOfRow,
      identityCheck: identityCheckOfRow,
      documents: documentsOfRow,
      verificationRecords: recordsJsonOf(qualified(applications.id)),
    })
    .from(applications)
    .where(eq(applications.id, sql.placeholder('applicationId')))
    .prepare('delivery_application'),
);

function deliveredDocumentsOf(rows: (Omit<DeliveredDocument, 'content'> & { content: string | null })[]): DeliveredDocument[] {
  return rows.map(({ content, ...row }) => {
    if (content === null) throw new Error('a completed application has a document not yet imported into the database');
    return { ...row, content };
  });
}

const text = (answers: Record<string, unknown> | undefined, name: string): string | undefined => {
  const value = answers?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/** Each form's kana name and kana address in the Zengin set, keyed `<form>.accountName` and `<form>.<field>`. */
export function coreSystemFormsOf(answers: Record<string, Record<string, unknown>>): Record<string, string | null> {
  const result: Record<string, string | null> = {};
  for (const [form, values] of Object.entries(answers)) {
    const last = text(values, 'kanaLastName');
    const first = text(values, 'kanaFirstName');
    if (last && first) result[`${form}.accountName`] = zenginAccountName(last, first);
    for (const field of ['kanaAddress', 'kanaSubAddress', 'kanaTempAddress']) {
      const value = text(values, field);
      if (value) result[`${form}.${field}`] = toZenginKana(value);
    }
  }
  return result;
}

/** The whole document for a completed application; throws when it is not completed. */
export async function applicationDeliveryOf(db: Database, applicationId: string): Promise<ApplicationDelivery> {
  const [application] = await deliveryStatementOf(db).execute({ applicationId });
  if (!application?.applicationNumber || !application.applicationCompletedAt) throw new Error('a delivery names an application that is not completed');
  // The stub left once the bank confirmed it and its grace period passed (ADR 0036): the data is gone.
  if (application.mailAddress === null) throw new Error('a delivery names an application whose data was removed after its delivery');
  const answers = application.answers ?? {};
  const check = application.identityCheck;
  return {
    format: DELIVERY_FORMAT,
    idempotencyKey: applicationId,
    applicationId,
    applicationNumber: application.applicationNumber,
    bankCode: application.bankCode,
    applicationType: application.applicationType,
    completedAt: toJstIso(application.applicationCompletedAt),
    mailAddress: application.mailAddress,
    answers,
    labels: application.labels ?? {},
    coreSystem: coreSystemFormsOf(answers),
    documents: deliveredDocumentsOf(application.documents),
    identityCheck: check ? { ...check, decidedAt: check.decidedAt ? toJstIso(new Date(check.decidedAt)) : null } : null,
    verificationRecords: recordsFromJson(application.verificationRecords),
  };
}
