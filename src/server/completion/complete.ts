import { and, eq, isNull, sql } from 'drizzle-orm';
import { japanIsoDate } from '../../domain/rules/index.js';
import type { Database } from '../db/index.js';
import { oncePerDatabase } from '../db/prepared.js';
import { applicationNumberCounters, applications, bankDeliveries, mailQueue } from '../db/schema.js';
import { timestamptz } from '../db/values.js';
import { enqueueDeliveriesOf, queuedDeliveryClaim, type ClaimedDelivery } from '../delivery/rows.js';
import { enqueueMailsOf, queuedClaim, type ClaimedMail } from '../mail/queue-rows.js';
import type { MailMessage } from '../mail/types.js';
import { completionFactsOfRow, completionStateFields, type CompletionFacts, type CompletionState } from './facts.js';
import { applicationNumberPrefix, applicationNumberSql } from './number.js';

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

/**
 * The completion's statement, built once per database in each of its two forms (claimed: the
 * mail and the hand-off queued claimed, ADR 0041; or not) and prepared (db/prepared.ts): every
 * application runs it once, and building its five parts anew was most of drizzle's CPU per
 * application. Placeholders: id, bankCode, day (the Japan date), numberPrefix, mailAddress and
 * facts (as judged), mail (the message's JSON with NUMBER_SLOT), now and discardAfter, and in
 * the claimed form mailLockedUntil and deliveryLockedUntil (times as ISO texts).
 */
function completionStatement(db: Database, claimedForm: boolean) {
  const id = sql.placeholder('id');
  const bankCode = sql.placeholder('bankCode');
  const now = sql.placeholder('now');
  const locked = db.$with('locked').as(
    db
      .select({ id: applications.id })
      .from(applications)
      .where(
        and(
          eq(applications.id, id),
          isNull(applications.applicationNumber),
          eq(applications.mailAddress, sql.placeholder('mailAddress')),
          sql`${completionFactsOfRow} = ${sql.placeholder('facts')}::jsonb`,
        ),
      )
      .for('update'),
  );
  const counter = db.$with('counter').as(
    db
      .insert(applicationNumberCounters)
      .select((qb) =>
        qb
          .select({ bankCode: sql`${bankCode}::varchar`.as('bank_code'), day: sql`${sql.placeholder('day')}::date`.as('day'), lastValue: sql`1`.as('last_value') })
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
      .set({ applicationNumber: applicationNumberSql(sql.placeholder('numberPrefix'), sql`${counter.lastValue}`), applicationCompletedAt: timestamptz(now), updatedAt: timestamptz(now) })
      .from(counter)
      .where(and(eq(applications.id, id), isNull(applications.applicationNumber)))
      .returning({ id: applications.id, applicationNumber: applications.applicationNumber, completedAt: applications.applicationCompletedAt }),
  );
  const deliveryLockedUntil = claimedForm ? sql.placeholder('deliveryLockedUntil') : undefined;
  const mailLockedUntil = claimedForm ? sql.placeholder('mailLockedUntil') : undefined;
  const delivered = db
    .$with('delivered', { applicationId: bankDeliveries.applicationId })
    .as(enqueueDeliveriesOf(sql`select ${done.id} from ${done}`, bankCode, now, deliveryLockedUntil));
  const mailed = db
    .$with('mailed', { id: mailQueue.id })
    .as(enqueueMailsOf('completion', sql`select ${done.id}, replace(${sql.placeholder('mail')}::text, ${NUMBER_SLOT}::text, ${done.applicationNumber})::jsonb from ${done}`, now, sql.placeholder('discardAfter'), mailLockedUntil));
  return db
    .with(locked, counter, done, delivered, mailed)
    .select({
      completedNumber: sql<string | null>`(select ${done.applicationNumber} from ${done})`,
      completedAt: sql<Date | null>`(select ${done.completedAt} from ${done})`.mapWith(applications.applicationCompletedAt),
      // Only claimed rows return theirs: null otherwise.
      claimedMailId: claimedForm ? sql<string | null>`(select ${mailed.id} from ${mailed})` : sql<string | null>`null`,
      claimedDeliveryId: claimedForm ? sql<string | null>`(select ${delivered.applicationId} from ${delivered})` : sql<string | null>`null`,
      ...completionStateFields,
    })
    .from(applications)
    .where(eq(applications.id, id))
    .prepare(claimedForm ? 'complete_application_claimed' : 'complete_application');
}

const completionStatementsOf = oncePerDatabase((db) => ({ claimed: completionStatement(db, true), unclaimed: completionStatement(db, false) }));

export async function completeApplication(db: Database, request: CompletionRequest): Promise<CompletionResult> {
  const { applicationId: id, bankCode, now, seen } = request;
  const mailJson = JSON.stringify(request.mail);
  // The slot must survive JSON as written, or the number would not reach the mail.
  if (!mailJson.includes(NUMBER_SLOT)) throw new Error('the completion mail has no place for the application number');
  const day = japanIsoDate(now);
  const lockedUntil = (ms: number) => new Date(now.getTime() + ms);
  const locks = request.lockMs ? { mail: lockedUntil(request.lockMs.mail), delivery: lockedUntil(request.lockMs.delivery) } : null;
  const statements = completionStatementsOf(db);
  const values = {
    id,
    bankCode,
    day,
    numberPrefix: applicationNumberPrefix(bankCode, day),
    mailAddress: seen.mailAddress,
    facts: JSON.stringify(seen.facts),
    mail: mailJson,
    now: now.toISOString(),
    discardAfter: request.discardAfter.toISOString(),
  };
  const [row] = locks
    ? await statements.claimed.execute({ ...values, mailLockedUntil: locks.mail.toISOString(), deliveryLockedUntil: locks.delivery.toISOString() })
    : await statements.unclaimed.execute(values);
  if (!row) throw new Error('the application to complete has no row');
  const { completedNumber, completedAt, claimedMailId, claimedDeliveryId, ...state } = row;
  if (completedNumber !== null && completedAt !== null) {
    // The message as the statement wrote it: the number in its slot.
    const message = JSON.parse(mailJson.replaceAll(NUMBER_SLOT, completedNumber)) as MailMessage;
    const claimed: CompletionClaims = {
      mail: claimedMailId && locks ? queuedClaim(claimedMailId, 'completion', message, request.discardAfter, locks.mail) : null,
      delivery: claimedDeliveryId && locks ? queuedDeliveryClaim(claimedDeliveryId, bankCode, locks.delivery) : null,
    };
    return { completed: true, applicationNumber: completedNumber, completedAt, claimed };
  }
  return { completed: false, state };
}
