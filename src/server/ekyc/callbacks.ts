import type { IncomingHttpHeaders } from 'node:http';
import { and, eq, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import { EKYC_STATUS, isEkycPending, type EkycStatus } from '../../domain/ekyc.js';
import type { Database } from '../db/index.js';
import { oncePerDatabase } from '../db/prepared.js';
import { timestamptz } from '../db/values.js';
import { applications, ekycSessions } from '../db/schema.js';
import { approvalColumns, approvalInputs, approvalRecords, recordsJson, withDecision } from '../records/write.js';
import { statusOf, type EkycProvider, type EkycProviderStatus } from './adapter.js';

export type ApplyResult = 'updated' | 'unchanged' | 'unknown';

/** The session of this provider and its id: values, or a prepared statement's placeholders. */
function sessionOf(provider: string | SQLWrapper, providerSessionId: string | SQLWrapper) {
  return and(eq(ekycSessions.provider, provider), eq(ekycSessions.providerSessionId, providerSessionId));
}

/**
 * The session an approval decides and what its records keep, prepared (db/prepared.ts): every
 * application's check is approved once. Placeholders: provider, providerSessionId.
 */
const pendingApprovalOf = oncePerDatabase((db) =>
  db
    .select({ id: ekycSessions.id, applicationId: ekycSessions.applicationId, applicationType: ekycSessions.applicationType, status: ekycSessions.status, ...approvalColumns })
    .from(ekycSessions)
    .innerJoin(applications, eq(applications.id, ekycSessions.applicationId))
    .where(sessionOf(sql.placeholder('provider'), sql.placeholder('providerSessionId')))
    .limit(1)
    .prepare('ekyc_pending_approval'),
);

/** A session not decided yet: created, or being processed by the provider. */
const undecidedStatus = inArray(ekycSessions.status, [EKYC_STATUS.created, EKYC_STATUS.providerProcessing]);

/**
 * The approval of a session with its verification records (records/write.ts, withDecision),
 * built once per database and prepared (db/prepared.ts): every approved identity check runs it.
 * Placeholders: id (the session), status, supplement, now (ISO), records (recordsJson). Only an
 * undecided session is changed.
 */
const approvalOf = oncePerDatabase((db) => {
  const now = timestamptz(sql.placeholder('now'));
  const decided = db.$with('decided').as(
    db
      .update(ekycSessions)
      .set({ status: sql`${sql.placeholder('status')}`, supplement: sql`${sql.placeholder('supplement')}`, updatedAt: now, decidedAt: now })
      .where(and(eq(ekycSessions.id, sql.placeholder('id')), undecidedStatus))
      .returning({ id: ekycSessions.id, applicationId: ekycSessions.applicationId }),
  );
  return withDecision(db, decided, sql.placeholder('records')).prepare('ekyc_approval');
});

/**
 * Records a provider's state of a session. Status only moves forward: created (1) ->
 * provider processing (2) -> approved (4) / failed (8) / rejected (9); a decided session
 * never changes again, so a replayed or late callback cannot undo a decision. Returns
 * 'unknown' when no session of ours has this provider id.
 */
export async function applyProviderStatus(
  db: Database,
  provider: Pick<EkycProvider, 'name' | 'method'>,
  providerSessionId: string,
  reported: EkycProviderStatus,
  now: Date,
): Promise<ApplyResult> {
  const next = statusOf(reported.state);
  const session = sessionOf(provider.name, providerSessionId);
  let updated: { id: number }[] = [];
  if (next === EKYC_STATUS.providerProcessing) {
    updated = await db
      .update(ekycSessions)
      .set({ status: next, updatedAt: now })
      .where(and(session, eq(ekycSessions.status, EKYC_STATUS.created)))
      .returning({ id: ekycSessions.id });
  } else if (next === EKYC_STATUS.bankerProcessing) {
    // The session, still undecided, and what its records keep, read first (records/write.ts
    // says why that is sound); then the approval and its records in one statement.
    const [pending] = await pendingApprovalOf(db).execute({ provider: provider.name, providerSessionId });
    if (!pending) return 'unknown';
    if (!isEkycPending(pending.status as EkycStatus)) return 'unchanged';
    const evidence = reported.evidence ?? { state: reported.state, supplement: reported.supplement };
    const check = { id: pending.id, applicationId: pending.applicationId, applicationType: pending.applicationType, sessionId: pending.id, provider: provider.name, providerSessionId, method: provider.method, evidence };
    const records = approvalRecords(check, await approvalInputs(db, pending, check), now);
    const decided = await approvalOf(db).execute({ id: pending.id, status: next, supplement: reported.supplement, now: now.toISOString(), records: recordsJson(records) });
    updated = decided.length > 0 ? [{ id: pending.id }] : [];
  } else if (!isEkycPending(next)) {
    // Failed or rejected: no record, one statement.
    updated = await db
      .update(ekycSessions)
      .set({ status: next, supplement: false, updatedAt: now, decidedAt: now })
      .where(and(session, undecidedStatus))
      .returning({ id: ekycSessions.id });
  }
  if (updated.length > 0) return 'updated';
  const [exists] = await db.select({ id: ekycSessions.id }).from(ekycSessions).where(session).limit(1);
  return exists ? 'unchanged' : 'unknown';
}

export interface CallbackDependencies {
  db: Database;
  provider: EkycProvider;
  now: () => Date;
}

/**
 * A provider callback as received: verified by the provider's adapter (signature, time,
 * shape; EkycCallbackError otherwise), then recorded. POST /api/ekyc/callback and the
 * simulator's decision both come through here, so the simulator exercises the real path.
 */
export async function receiveCallback(
  { db, provider, now }: CallbackDependencies,
  headers: IncomingHttpHeaders,
  rawBody: Buffer,
): Promise<ApplyResult> {
  const event = provider.verifyCallback(headers, rawBody);
  return applyProviderStatus(db, provider, event.sessionId, event, now());
}
