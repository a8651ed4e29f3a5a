import { inArray, type SQLWrapper } from 'drizzle-orm';
import type { Database } from '../db/index.js';
import { ekycOidcSessions, ekycSessions, ekycSimulatorSessions } from '../db/schema.js';

/** A database or a transaction. */
type Writer = Pick<Database, 'delete' | 'select'>;

/**
 * Deletes the identity-check sessions of the applications `applicationIds` (ids, or a query
 * of them): ours (ekyc_sessions) and the provider side's rows named by their provider session
 * id (the simulator's, the OpenID relying party's), which have no foreign key to the
 * application and would otherwise outlive it. Used by the retention job for an abandoned
 * application (resume/applications.ts) and for a delivered one (delivery/minimize.ts).
 * Verification records keep their own copy of what they need (ADR 0034).
 */
export async function deleteIdentityCheckSessions(db: Writer, applicationIds: string[] | SQLWrapper): Promise<void> {
  const providerSessions = db.select({ id: ekycSessions.providerSessionId }).from(ekycSessions).where(inArray(ekycSessions.applicationId, applicationIds));
  await db.delete(ekycSimulatorSessions).where(inArray(ekycSimulatorSessions.sessionId, providerSessions));
  await db.delete(ekycOidcSessions).where(inArray(ekycOidcSessions.sessionId, providerSessions));
  await db.delete(ekycSessions).where(inArray(ekycSessions.applicationId, applicationIds));
}
