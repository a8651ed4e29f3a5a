import { desc, eq, sql } from 'drizzle-orm';
import { EKYC_STATUS } from '../../domain/ekyc.js';
import type { Database } from '../db/index.js';
import { oncePerDatabase } from '../db/prepared.js';
import { qualified } from '../db/qualified.js';
import { applications, ekycSessions } from '../db/schema.js';
import { timestamptz } from '../db/values.js';

/** An application's identity-check session as the routes read it. */
export interface EkycSessionRow {
  id: number;
  providerSessionId: string;
  provider: string;
  url: string;
  status: (typeof ekycSessions.$inferSelect)['status'];
  supplement: boolean;
}

/** A check the provider has just created, as POST /api/ekyc stores it. */
export interface NewEkycSession {
  applicationId: string;
  applicationType: (typeof ekycSessions.$inferInsert)['applicationType'];
  provider: string;
  providerSessionId: string;
  url: string;
}

/** insertEkycSession's statement, prepared (db/prepared.ts): every application starts a check. */
const sessionInsertOf = oncePerDatabase((db) => {
  const now = timestamptz(sql.placeholder('now'));
  const value = (name: keyof NewEkycSession) => sql`${sql.placeholder(name)}`;
  return db
    .insert(ekycSessions)
    .values({
      applicationId: value('applicationId'),
      applicationType: value('applicationType'),
      provider: value('provider'),
      providerSessionId: value('providerSessionId'),
      url: value('url'),
      status: EKYC_STATUS.created,
      supplement: false,
      startedAt: now,
      updatedAt: now,
    })
    .prepare('ekyc_session_insert');
});

/** Stores a new check, not yet started at the provider's (status created). */
export async function insertEkycSession(db: Database, session: NewEkycSession, now: Date): Promise<void> {
  await sessionInsertOf(db).execute({ ...session, now: now.toISOString() });
}

/** The application's newest session, if any. */
export async function latestEkycSession(db: Database, applicationId: string): Promise<EkycSessionRow | undefined> {
  const [row] = await db
    .select({
      id: ekycSessions.id,
      providerSessionId: ekycSessions.providerSessionId,
      provider: ekycSessions.provider,
      url: ekycSessions.url,
      status: ekycSessions.status,
      supplement: ekycSessions.supplement,
    })
    .from(ekycSessions)
    .where(eq(ekycSessions.applicationId, applicationId))
    .orderBy(desc(ekycSessions.id))
    .limit(1);
  return row;
}

const ofApplication = sql`${qualified(ekycSessions.applicationId)} = ${qualified(applications.id)}`;

/**
 * The identity check of an application as a statement on `applications` returns it (the
 * session check of the eKYC and document routes, plugins/auth.ts): its newest session as one
 * json object (the same fields as latestEkycSession), how many were started, and its
 * application number (a completed application starts no check and takes no document).
 */
export const ekycStateFields = {
  latestEkyc: sql<EkycSessionRow | null>`(select json_build_object('id', ${qualified(ekycSessions.id)}, 'providerSessionId', ${qualified(ekycSessions.providerSessionId)}, 'provider', ${qualified(ekycSessions.provider)}, 'url', ${qualified(ekycSessions.url)}, 'status', ${qualified(ekycSessions.status)}, 'supplement', ${qualified(ekycSessions.supplement)}) from ${ekycSessions} where ${ofApplication} order by ${qualified(ekycSessions.id)} desc limit 1)`,
  ekycAttempts: sql<number>`(select count(*) from ${ekycSessions} where ${ofApplication})::int`,
  applicationNumber: applications.applicationNumber,
};

/** What ekycStateFields returned, as the routes read it. */
export interface EkycState {
  latest: EkycSessionRow | null;
  attempts: number;
  applicationNumber: string | null;
}
