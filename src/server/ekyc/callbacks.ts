import type { IncomingHttpHeaders } from 'node:http';
import { and, eq, inArray } from 'drizzle-orm';
import { EKYC_STATUS, isEkycPending } from '../../domain/ekyc.js';
import type { Database } from '../db/index.js';
import { ekycSessions } from '../db/schema.js';
import { recordApproval } from '../records/write.js';
import { statusOf, type EkycProvider, type EkycProviderStatus } from './adapter.js';

export type ApplyResult = 'updated' | 'unchanged' | 'unknown';

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
  const session = and(eq(ekycSessions.provider, provider.name), eq(ekycSessions.providerSessionId, providerSessionId));
  let updated: { id: number }[] = [];
  if (next === EKYC_STATUS.providerProcessing) {
    updated = await db
      .update(ekycSessions)
      .set({ status: next, updatedAt: now })
      .where(and(session, eq(ekycSessions.status, EKYC_STATUS.created)))
      .returning({ id: ekycSessions.id });
  } else if (!isEkycPending(next)) {
    // The decision and, for an approval, its verification records commit together: a record
    // exists exactly when the session is approved, and only the first decision gets here.
    updated = await db.transaction(async (tx) => {
      const decided = await tx
        .update(ekycSessions)
        .set({
          status: next,
          supplement: next === EKYC_STATUS.bankerProcessing && reported.supplement,
          updatedAt: now,
          decidedAt: now,
        })
        .where(and(session, inArray(ekycSessions.status, [EKYC_STATUS.created, EKYC_STATUS.providerProcessing])))
        .returning({ id: ekycSessions.id, applicationId: ekycSessions.applicationId, applicationType: ekycSessions.applicationType });
      const [approved] = next === EKYC_STATUS.bankerProcessing ? decided : [];
      if (approved) {
        const evidence = reported.evidence ?? { state: reported.state, supplement: reported.supplement };
        await recordApproval(
          tx,
          { ...approved, sessionId: approved.id, provider: provider.name, providerSessionId, method: provider.method, evidence },
          now,
        );
      }
      return decided;
    });
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
