import { desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/index.js';
import { qualified } from '../db/qualified.js';
import { applications, ekycSessions } from '../db/schema.js';

/** An application's identity-check session as the routes read it. */
export interface EkycSessionRow {
  id: number;
  providerSessionId: string;
  provider: string;
  url: string;
  status: (typeof ekycSessions.$inferSelect)['status'];
  supplement: boolean;
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
