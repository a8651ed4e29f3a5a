import { and, eq, isNull, sql, type Column } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { DocumentType, EkycStatus } from '../../domain/ekyc.js';
import type { FastifyPluginAsync } from 'fastify';
import { EKYC_STATUS } from '../../domain/ekyc.js';
import { japanIsoDate } from '../../domain/rules/index.js';
import type { Database } from '../db/index.js';
import { qualified } from '../db/qualified.js';
import { applicationForms, applicationNumberCounters, applicationPins, applications, documents, ekycSessions, type ApplicationType } from '../db/schema.js';
import { httpMessages } from '../http-messages.js';
import { completionMail } from '../mail/index.js';
import { enqueueClaimedMail, type ClaimedMail } from '../mail/queue-rows.js';
import { enqueueClaimedDelivery, type ClaimedDelivery } from '../delivery/rows.js';
import { applicationOf, requireApplication } from '../plugins/auth.js';
import { toJstIso } from '../time.js';
import { hasChildDocuments } from './ekyc.js';
import type { FormCatalogue } from '../forms/catalogue.js';
import { missingForms } from '../forms/stored.js';

/**
 * POST /api/application-complete -> { applicationNumber, applicationCompletedAt }
 *
 * Gives the application its number and acceptance time and mails the applicant, once: a
 * repeated call (the page retried, two tabs, a double tap) answers the same number and time
 * and sends no second mail. Two calls at the same moment take turns on the application's row
 * (SELECT … FOR UPDATE in one transaction), and the number is written only
 * WHERE application_number IS NULL, under a unique index, on PGlite and PostgreSQL alike.
 *
 * Number: <bank code>-<yyMMdd>-<6-digit sequence>, e.g. 0177-250615-000042: the bank, the
 * day of acceptance in Japan time, and a counter per bank and day starting at 000001
 * (application_number_counters; a rolled-back transaction may leave a gap, never a
 * duplicate). 18 characters, readable over the phone, and sorting by time within a bank.
 *
 * 409 { message } unless the application can be handed over: every form its flow asks before
 * the PIN stored (forms/stored.ts; general: personal, workplace, branch, seal choice; child:
 * the child's personal data, the parent, branch), the PIN set, the newest identity
 * check approved (status 4), a requested current-address document uploaded, and for CHILD the
 * child's documents uploaded. applicationCompletedAt is ISO 8601 in Japan time.
 */

export function formatApplicationNumber(bankCode: string, japanDay: string, sequence: number): string {
  return `${bankCode}-${japanDay.slice(2).replace(/-/g, '')}-${String(sequence).padStart(6, '0')}`;
}

/** `column` of the application's rows in `table`, as text (empty when none). */
const textsOf = (column: Column, table: PgTable, applicationId: Column) =>
  sql<string[]>`coalesce((select array_agg(${qualified(column)}::text) from ${table} where ${qualified(applicationId)} = ${qualified(applications.id)}), '{}')`;

/** The newest identity check's `column`. */
const newestEkyc = <T>(column: Column) =>
  sql<T | null>`(select ${qualified(column)} from ${ekycSessions} where ${qualified(ekycSessions.applicationId)} = ${qualified(applications.id)} order by ${qualified(ekycSessions.id)} desc limit 1)`;

/**
 * What completion checks, in one statement (sent after the row's lock, so it sees whatever
 * was committed before): the stored forms, the PIN, the newest identity check, the uploads.
 */
async function completionFactsOf(db: Database, applicationId: string) {
  const [row] = await db
    .select({
      forms: textsOf(applicationForms.form, applicationForms, applicationForms.applicationId),
      pinSet: sql<boolean>`exists (select 1 from ${applicationPins} where ${qualified(applicationPins.applicationId)} = ${qualified(applications.id)})`,
      ekycStatus: newestEkyc<EkycStatus>(ekycSessions.status),
      ekycSupplement: newestEkyc<boolean>(ekycSessions.supplement),
      uploaded: textsOf(documents.type, documents, documents.applicationId),
    })
    .from(applications)
    .where(eq(applications.id, applicationId))
    .limit(1);
  return row;
}

/** Why the application cannot be completed yet, or null. `requiredForms`: its flow's forms before the PIN. */
async function blocker(
  db: Database,
  applicationId: string,
  applicationType: ApplicationType,
  requiredForms: readonly string[],
  catalogue: FormCatalogue,
): Promise<string | null> {
  const facts = await completionFactsOf(db, applicationId);
  if (!facts || missingForms(requiredForms, { documents: new Set(facts.forms) }, catalogue).length > 0) return httpMessages.stepsIncomplete;
  if (!facts.pinSet) return httpMessages.pinNotSet;
  if (facts.ekycStatus !== EKYC_STATUS.bankerProcessing) return httpMessages.ekycNotApproved;
  // The values of documents.type: DOCUMENT_TYPES (the column's enum).
  const uploaded = new Set(facts.uploaded as DocumentType[]);
  if (facts.ekycSupplement && !uploaded.has('CURRENT_ADDRESS_DOCUMENT')) return httpMessages.supplementMissing;
  if (applicationType === 'CHILD' && !hasChildDocuments(uploaded)) return httpMessages.documentsMissing;
  return null;
}

type Outcome =
  | { kind: 'blocked'; message: string }
  | { kind: 'completed'; applicationNumber: string; completedAt: Date; fresh: boolean; claimed?: { mail: ClaimedMail; delivery: ClaimedDelivery | null } };

/** How long the completion mail is retried while the SMTP server fails: after that it is stale. */
const COMPLETION_MAIL_DAYS = 3;
const DAY_MS = 24 * 60 * 60 * 1000;

const completionRoutes: FastifyPluginAsync = async (app) => {
  app.post('/application-complete', { onRequest: requireApplication }, async (request, reply) => {
    const application = applicationOf(request);
    const { id, bankCode } = application;
    // Its own flow version (flows/versions.ts), not necessarily FLOWS_DIR's; read before the
    // transaction, and needed only when the application is not completed yet (a completed
    // one's version may be dropped, and a repeated call still answers its number).
    const flow = await app.flowVersions.of(application);
    const bank = request.bank;
    if (!bank) throw new Error('requireApplication let a request without a bank through');

    const outcome = await app.db.transaction(async (tx): Promise<Outcome> => {
      const [row] = await tx
        .select({
          applicationType: applications.applicationType,
          mailAddress: applications.mailAddress,
          applicationNumber: applications.applicationNumber,
          applicationCompletedAt: applications.applicationCompletedAt,
        })
        .from(applications)
        .where(eq(applications.id, id))
        .for('update');
      if (!row) throw new Error('the authenticated application has no row');
      if (row.applicationNumber && row.applicationCompletedAt) {
        return { kind: 'completed', applicationNumber: row.applicationNumber, completedAt: row.applicationCompletedAt, fresh: false };
      }
      if (!flow) throw new Error('the flow version of a running application is not stored');
      // Only the stub of a delivered application has no address (ADR 0036), and it is completed.
      if (row.mailAddress === null) throw new Error('an application not completed has no mail address');
      // Read inside the transaction, after the lock: what the bank is handed is what was checked.
      const message = await blocker(tx, id, row.applicationType, flow.requiredForms, app.forms);
      if (message) return { kind: 'blocked', message };

      const now = app.now();
      const day = japanIsoDate(now);
      const [counter] = await tx
        .insert(applicationNumberCounters)
        .values({ bankCode, day, lastValue: 1 })
        .onConflictDoUpdate({
          target: [applicationNumberCounters.bankCode, applicationNumberCounters.day],
          set: { lastValue: sql`${applicationNumberCounters.lastValue} + 1` },
        })
        .returning({ lastValue: applicationNumberCounters.lastValue });
      if (!counter) throw new Error('the application number counter returned no row');
      const applicationNumber = formatApplicationNumber(bankCode, day, counter.lastValue);
      const [updated] = await tx
        .update(applications)
        .set({ applicationNumber, applicationCompletedAt: now, updatedAt: now })
        .where(and(eq(applications.id, id), isNull(applications.applicationNumber)))
        .returning({ applicationNumber: applications.applicationNumber, completedAt: applications.applicationCompletedAt });
      if (!updated?.applicationNumber || !updated.completedAt) {
        throw new Error('the application was completed by another request while locked');
      }
      // Queued with the completion itself: the mail goes out once, and the application is handed
      // to the bank (ADR 0033), whatever happens to this request. Both claimed by this process
      // as they are queued, and handed to its workers once the transaction has committed (ADR 0041).
      const delivery = await enqueueClaimedDelivery(tx, id, bankCode, now, app.config.delivery.lockMs);
      const mailDiscardAfter = new Date(now.getTime() + COMPLETION_MAIL_DAYS * DAY_MS);
      const mail = await enqueueClaimedMail(tx, 'completion', completionMail(bank, row.mailAddress, updated.applicationNumber, updated.completedAt), now, mailDiscardAfter, app.config.mailQueue.lockMs, id);
      return { kind: 'completed', applicationNumber: updated.applicationNumber, completedAt: updated.completedAt, fresh: true, claimed: { mail, delivery } };
    });

    if (outcome.kind === 'blocked') return reply.code(409).send({ message: outcome.message });
    // Committed: only now may the workers send them (a rolled-back completion sends nothing).
    if (outcome.claimed?.delivery) app.deliveries.handOff(outcome.claimed.delivery);
    if (outcome.claimed) app.mailQueue.handOff(outcome.claimed.mail);
    return { applicationNumber: outcome.applicationNumber, applicationCompletedAt: toJstIso(outcome.completedAt) };
  });
};

export default completionRoutes;
