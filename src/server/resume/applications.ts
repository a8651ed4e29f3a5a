import { and, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { retentionDaysOf, type BankConfig } from '../../domain/bank/types.js';
import { describeFlow, type FlowModel } from '../../domain/flow/model.js';
import type { FlowConfig } from '../../domain/flow/types.js';
import { furthestStep, type ResumeFacts } from '../../domain/flow/resume.js';
import { normalizeMailAddress } from '../crypto.js';
import type { Database } from '../db/index.js';
import type { RunsFlow } from '../flows/versions.js';
import { qualified } from '../db/qualified.js';
import { applicationForms, applications, documents, ekycSessions, type ApplicationType } from '../db/schema.js';
import { isEkycStatus } from '../../domain/ekyc.js';
import { resumeMail } from '../mail/index.js';
import type { MailMessage } from '../mail/types.js';
import { enqueueClaimedMail } from '../mail/queue-rows.js';
import type { FirstStepMail } from '../forms/documents.js';
import { deleteIdentityCheckSessions } from '../ekyc/forget.js';

/** Resuming an application (ADR 0030): which one, where it goes on, its mail, its end. */

export const DAY_MS = 24 * 60 * 60 * 1000;

/** A stored application is kept this long after its last write (its bank's retention). */
export function keptUntil(bank: BankConfig, lastWrite: Date): Date {
  return new Date(lastWrite.getTime() + retentionDaysOf(bank) * DAY_MS);
}

/**
 * The flow an application runs: its own version (ADR 0031), which a later edit of FLOWS_DIR
 * does not change. Undefined only once that version is dropped, which no kept application allows.
 */
export async function flowModelOf(app: FastifyInstance, application: RunsFlow): Promise<FlowModel | undefined> {
  const version = await app.flowVersions.of(application);
  if (!version) return undefined;
  let model = modelsByFlow.get(version.flow);
  if (!model) modelsByFlow.set(version.flow, (model = describeFlow(version.flow)));
  return model;
}

/** A flow's model, made once per definition: the registry keeps a version's definition, and an application's first step asks for it. */
const modelsByFlow = new WeakMap<FlowConfig, FlowModel>();

export interface Resumable extends RunsFlow {
  id: string;
  completed: boolean;
  updatedAt: Date;
}

/** newestApplication's statement: both arms of its OR are index scans (migration 0029). */
export function newestApplicationQuery(db: Database, bankCode: string, applicationType: ApplicationType, mailAddress: string, mailHash: string) {
  return db
    .select({ id: applications.id, completedAt: applications.applicationCompletedAt, updatedAt: applications.updatedAt, flowVersion: applications.flowVersion })
    .from(applications)
    .where(
      and(
        eq(applications.bankCode, bankCode),
        eq(applications.applicationType, applicationType),
        or(sql`lower(btrim(${applications.mailAddress})) = ${normalizeMailAddress(mailAddress)}`, eq(applications.mailHash, mailHash)),
      ),
    )
    .orderBy(desc(applications.updatedAt))
    .limit(1);
}

/**
 * The applicant's newest application of this bank and type by its last write: the one they
 * were working on (compared on the address as the verification codes compare it). The stub of
 * a delivered application has only the address's HMAC (`mailHash`, the hasher's; ADR 0036), so
 * that resume still says it is completed.
 */
export async function newestApplication(db: Database, bankCode: string, applicationType: ApplicationType, mailAddress: string, mailHash: string): Promise<Resumable | undefined> {
  const [row] = await newestApplicationQuery(db, bankCode, applicationType, mailAddress, mailHash);
  return row ? { id: row.id, applicationType, flowVersion: row.flowVersion, completed: row.completedAt !== null, updatedAt: row.updatedAt } : undefined;
}

/** What an application holds, as the flow's steps ask it: the columns to select with its row… */
export const factColumns = {
  pinSet: applications.pinSet,
  forms: sql<string[] | null>`(select array_agg(${qualified(applicationForms.form)}) from ${applicationForms} where ${qualified(applicationForms.applicationId)} = ${qualified(applications.id)})`,
  documents: sql<string[] | null>`(select array_agg(${qualified(documents.type)}) from ${documents} where ${qualified(documents.applicationId)} = ${qualified(applications.id)})`,
  ekycStatus: sql<number | null>`(select ${qualified(ekycSessions.status)} from ${ekycSessions} where ${qualified(ekycSessions.applicationId)} = ${qualified(applications.id)} order by ${qualified(ekycSessions.startedAt)} desc, ${qualified(ekycSessions.id)} desc limit 1)`,
};

/** …and what they say. */
export function factsOf(row: { pinSet: boolean; forms: string[] | null; documents: string[] | null; ekycStatus: number | null } | undefined): ResumeFacts {
  const forms = new Set(row?.forms ?? []);
  if (row?.pinSet) forms.add('pin');
  const status = row?.ekycStatus;
  return { forms, documents: new Set(row?.documents ?? []), ekycStatus: isEkycStatus(status) ? status : undefined };
}

export async function resumeFactsOf(app: FastifyInstance, applicationId: string): Promise<ResumeFacts> {
  const [row] = await app.db.select(factColumns).from(applications).where(eq(applications.id, applicationId));
  return factsOf(row);
}

/** The path of the furthest step the application reached in its own flow version. */
export async function resumePathOf(app: FastifyInstance, application: RunsFlow & { id: string }): Promise<string | undefined> {
  const model = await flowModelOf(app, application);
  return model ? furthestStep(model, await resumeFactsOf(app, application.id))?.path : undefined;
}

/** The resume mail's life in the queue: stale after a day, a mail about keeping the data is worth little once it has waited that long. */
const RESUME_MAIL_DISCARD_MS = DAY_MS;

/** The mail that says how long the application is kept and how to resume it, to `mailAddress`. */
async function resumeMailOf(app: FastifyInstance, bank: BankConfig, application: RunsFlow, mailAddress: string): Promise<MailMessage> {
  const model = await flowModelOf(app, application);
  const landing = (model && model.pageByState.get(model.config.meta.landing)?.path) ?? '/';
  return resumeMail(bank, mailAddress, retentionDaysOf(bank), landing);
}

/**
 * The resume mail of an application none of whose steps is stored yet, to `mailAddress`: its
 * first stored step queues it, claimed by this process, in the same statement
 * (forms/documents.ts, storeDocumentBeforePin), so the applicant learns how long it is kept and
 * how to come back.
 */
export async function firstStepResumeMail(app: FastifyInstance, bank: BankConfig, application: RunsFlow, mailAddress: string, now: Date): Promise<FirstStepMail> {
  return {
    message: await resumeMailOf(app, bank, application, mailAddress),
    discardAfter: new Date(now.getTime() + RESUME_MAIL_DISCARD_MS),
    lockedUntil: new Date(now.getTime() + app.config.mailQueue.lockMs),
  };
}

/**
 * Queues the resume mail (resumeMailOf) to the address the application has: a resume that
 * verified the address again. The first stored step queues it with its own statement
 * (forms/documents.ts, storeDocumentBeforePin).
 */
export async function queueResumeMail(app: FastifyInstance, bank: BankConfig, application: RunsFlow & { id: string }, now: Date): Promise<void> {
  const [row] = await app.db.select({ mailAddress: applications.mailAddress }).from(applications).where(eq(applications.id, application.id));
  // The stub of a delivered application has no address left (ADR 0036); it is completed and has no session anyway.
  if (!row?.mailAddress) return;
  const message = await resumeMailOf(app, bank, application, row.mailAddress);
  // Claimed as it is queued and sent by this process's worker once committed (ADR 0041).
  const mail = await enqueueClaimedMail(app.db, 'resume', message, now, new Date(now.getTime() + RESUME_MAIL_DISCARD_MS), app.config.mailQueue.lockMs, application.id);
  app.mailQueue.handOff(mail);
}

/**
 * The applications of a bank not completed and not written since `before`. created_at bounds the
 * search (applications_unfinished_created_idx): one not written since `before` was created
 * before it.
 */
export function expiredApplications(bankCode: string, before: Date) {
  return and(eq(applications.bankCode, bankCode), isNull(applications.applicationCompletedAt), lt(applications.createdAt, before), lt(applications.updatedAt, before));
}

/**
 * Deletes the applications of `bank` not completed and not written within its retention
 * (their forms, documents, PIN, tokens and mails go with them: ON DELETE CASCADE; their
 * identity-check sessions, the provider side's rows included, first). Returns how many.
 */
export async function purgeExpired(db: Database, bank: BankConfig, now: Date): Promise<number> {
  const before = new Date(now.getTime() - retentionDaysOf(bank) * DAY_MS);
  const expired = expiredApplications(bank.code, before);
  return db.transaction(async (tx) => {
    // Locked first: a row deleted here is one whose sessions went, whatever runs meanwhile.
    const ids = (await tx.select({ id: applications.id }).from(applications).where(expired).for('update')).map((row) => row.id);
    if (ids.length === 0) return 0;
    await deleteIdentityCheckSessions(tx, ids);
    const deleted = await tx.delete(applications).where(inArray(applications.id, ids)).returning({ id: applications.id });
    return deleted.length;
  });
}
