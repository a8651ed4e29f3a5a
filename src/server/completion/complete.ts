import { and, eq, isNull, sql } from 'drizzle-orm';
import { japanIsoDate } from '../../domain/rules/index.js';
import type { Database } from '../db/index.js';
import { applicationNumberCounters, applications, bankDeliveries, mailQueue } from '../db/schema.js';
import { enqueueDeliveriesOf, type ClaimedDelivery } from '../delivery/rows.js';
import { enqueueMailsOf, type ClaimedMail } from '../mail/queue-rows.js';
import type { MailMessage } from '../mail/types.js';
import { completionFactsOfRow, completionStateFields, type CompletionFacts, type CompletionState } from './facts.js';
import { applicationNumberSql } from './number.js';

/**
 * The completion of an application in ONE statement (ADR 0040): it draws the number, writes it
 * and the time on the application, queues the hand-off to the bank and the completion mail,
 * all or nothing, and only while the application is as the request judged it.
 *
 * - `locked` takes the application's row FOR UPDATE while it has no number, the same mail
 *   address and the same completion facts (completion/facts.ts) as judged. A second
 *   completion waiting for this lock re-checks application_number IS NULL on the row as the
 *   first left it (PostgreSQL, READ COMMITTED), finds a number and takes nothing.
 * - `counter` adds one to the bank's counter of the day only for the row `locked` took: a
 *   refused or raced request draws no number, so it leaves no gap. The counter's row lock
 *   orders two applications of one bank and day; the unique index on application_number is
 *   the last guard.
 * - `done` writes the number (the counter's value, formatted in SQL) and the time; `delivered`
 *   and `mailed` queue the hand-off and the mail of the row `done` returns, the mail's text
 *   getting its number in the statement (NUMBER_SLOT).
 * - The main select returns what the statement saw of the application (its snapshot), for the
 *   route to judge again when nothing was completed.
 */

/** Stands for the number in the mail rendered before the number is drawn; the statement puts the number in. */
export const NUMBER_SLOT = '{{applicationNumber}}';

export interface CompletionRequest {
  applicationId: string;
  bankCode: string;
  now: Date;
  /** What the route judged: the statement completes only while these are still the application's. */
  seen: { mailAddress: string; facts: CompletionFacts };
  /** The completion mail, with NUMBER_SLOT where the number goes. */
  mail: MailMessage;
  /** Until when the mail is worth sending. */
  discardAfter: Date;
  /**
   * With these, the mail and the hand-off are queued claimed by this process for as long
   * (ADR 0041) and the result carries the claims, to hand to the workers: nothing is claimed
   * when the statement completes nothing.
   */
  lockMs?: { mail: number; delivery: number };
}

/** What a completion queued claimed, for MailQueue.handOff and DeliveryWorker.handOff. */
export interface CompletionClaims {
  mail: ClaimedMail | null;
  delivery: ClaimedDelivery | null;
}

export type CompletionResult =
  | { completed: true; applicationNumber: string; completedAt: Date; claimed: CompletionClaims }
  /** Nothing done: the application as the statement saw it (completed by another request, or its facts moved). */
  | { completed: false; state: CompletionState };

export async function completeApplication(db: Database, request: CompletionRequest): Promise<CompletionResult> {
  const { applicationId: id, bankCode, now, seen } = request;
  const mailJson = JSON.stringify(request.mail);
  // The slot must survive JSON as written, or the number would not reach the mail.
  if (!mailJson.includes(NUMBER_SLOT)) throw new Error('the completion mail has no place for the application number');
  const day = japanIsoDate(now);

  const locked = db.$with('locked').as(
    db
      .select({ id: applications.id })
      .from(applications)
      .where(
        and(
          eq(applications.id, id),
          isNull(applications.applicationNumber),
          eq(applications.mailAddress, seen.mailAddress),
          sql`${completionFactsOfRow} = ${JSON.stringify(seen.facts)}::jsonb`,
        ),
      )
      .for('update'),
  );
  const counter = db.$with('counter').as(
    db
      .insert(applicationNumberCounters)
      .select((qb) =>
        qb
          .select({ bankCode: sql`${bankCode}::varchar`.as('bank_code'), day: sql`${day}::date`.as('day'), lastValue: sql`1`.as('last_value') })
          .from(locked),
      )
      .onConflictDoUpdate({
        target: [applicationNumberCounters.bankCode, applicationNumberCounters.day],
        set: { lastValue: sql`${applicationNumberCounters.lastValue} + 1` },
      })
      .returning({ lastValue: applicationNumberCounters.lastValue }),
  );
  const done = db.$with('done').as(
    db
      .update(applications)
      .set({ applicationNumber: applicationNumberSql(bankCode, day, sql`${counter.lastValue}`), applicationCompletedAt: now, updatedAt: now })
      .from(counter)
      .where(and(eq(applications.id, id), isNull(applications.applicationNumber)))
      .returning({ id: applications.id, applicationNumber: applications.applicationNumber, completedAt: applications.applicationCompletedAt }),
  );
  const lockedUntil = (ms: number | undefined) => (ms === undefined ? undefined : new Date(now.getTime() + ms));
  const deliveryLockedUntil = lockedUntil(request.lockMs?.delivery);
  const mailLockedUntil = lockedUntil(request.lockMs?.mail);
  const delivered = db
    .$with('delivered', { applicationId: bankDeliveries.applicationId })
    .as(enqueueDeliveriesOf(sql`select ${done.id} from ${done}`, bankCode, now, deliveryLockedUntil));
  const mailed = db
    .$with('mailed', { id: mailQueue.id })
    .as(enqueueMailsOf('completion', sql`select ${done.id}, replace(${mailJson}::text, ${NUMBER_SLOT}::text, ${done.applicationNumber})::jsonb from ${done}`, now, request.discardAfter, mailLockedUntil));

  const [row] = await db
    .with(locked, counter, done, delivered, mailed)
    .select({
      completedNumber: sql<string | null>`(select ${done.applicationNumber} from ${done})`,
      completedAt: sql<Date | null>`(select ${done.completedAt} from ${done})`.mapWith(applications.applicationCompletedAt),
      // Only claimed rows return theirs: null otherwise.
      claimedMailId: mailLockedUntil ? sql<string | null>`(select ${mailed.id} from ${mailed})` : sql<null>`null`,
      claimedDeliveryId: deliveryLockedUntil ? sql<string | null>`(select ${delivered.applicationId} from ${delivered})` : sql<null>`null`,
      ...completionStateFields,
    })
    .from(applications)
    .where(eq(applications.id, id));
  if (!row) throw new Error('the application to complete has no row');
  const { completedNumber, completedAt, claimedMailId, claimedDeliveryId, ...state } = row;
  if (completedNumber !== null && completedAt !== null) {
    // The message as the statement wrote it: the number in its slot.
    const message = JSON.parse(mailJson.replaceAll(NUMBER_SLOT, completedNumber)) as MailMessage;
    const claimed: CompletionClaims = {
      mail: claimedMailId && mailLockedUntil ? { id: claimedMailId, kind: 'completion', message, attempts: 1, discardAfter: request.discardAfter, lockedUntil: mailLockedUntil } : null,
      delivery: claimedDeliveryId && deliveryLockedUntil ? { applicationId: claimedDeliveryId, bankCode, attempts: 1, lockedUntil: deliveryLockedUntil } : null,
    };
    return { completed: true, applicationNumber: completedNumber, completedAt, claimed };
  }
  return { completed: false, state };
}
