import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, inArray, isNull, lt, lte, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Database } from '../db/index.js';
import { oncePerDatabase } from '../db/prepared.js';
import { mailQueue } from '../db/schema.js';
import { timestamptz } from '../db/values.js';
import type { MailMessage } from './types.js';

/**
 * The statements of the mail queue (migration 0009) on its rows; when to run them is the
 * worker's (queue.ts). Every change to a claimed row names the claim's token, so it is only
 * made while the row is still this claim's.
 */

/** What a queued mail is: the log names this, never the address. */
export type MailKind = 'verification' | 'completion' | 'resume';

/** A database or a transaction: a mail is queued in the transaction that decides to send it. */
type Writer = Pick<Database, 'insert'>;

/**
 * Queues a mail for any worker, to be sent before `discardAfter` or not at all. `applicationId`:
 * the application it is about, whose data it goes with (ADR 0036); none for a verification
 * mail. The database's notice (migration 0027) wakes every process's worker to claim it.
 */
export async function enqueueMail(db: Writer, kind: MailKind, message: MailMessage, now: Date, discardAfter: Date, applicationId: string | null = null): Promise<void> {
  await db.insert(mailQueue).values({ id: randomUUID(), kind, message, nextAttemptAt: now, discardAfter, createdAt: now, applicationId });
}

/**
 * enqueueMail as one part of a larger statement (a data-modifying CTE; ADR 0040): one mail for
 * each row of `rows`, a select of two columns, the application's id and the message (jsonb),
 * so that the mail is queued exactly when that statement makes the change it is about. With
 * `lockedUntil`, each row is queued claimed by this process until then (attempts 1, as
 * claimedMailRow; ADR 0041) and the statement returns its `id`, to hand to MailQueue.handOff once
 * the statement has committed. The times may be placeholders of a statement built once
 * (db/prepared.ts).
 */
export function enqueueMailsOf(kind: MailKind, rows: SQL, now: Date | SQLWrapper, discardAfter: Date | SQLWrapper, lockedUntil?: Date | SQLWrapper): SQL {
  const columns = [mailQueue.id, mailQueue.kind, mailQueue.message, mailQueue.nextAttemptAt, mailQueue.discardAfter, mailQueue.createdAt, mailQueue.applicationId];
  const claimed = lockedUntil ? { columns: [mailQueue.lockedUntil, mailQueue.attempts], values: sql`, ${timestamptz(lockedUntil)}, 1`, returning: sql` returning ${sql.identifier(mailQueue.id.name)}` } : null;
  const names = [...columns, ...(claimed?.columns ?? [])].map((column) => sql.identifier(column.name));
  return sql`insert into ${mailQueue} (${sql.join(names, sql`, `)}) select gen_random_uuid(), ${kind}::varchar, queued.message, ${timestamptz(now)}, ${timestamptz(discardAfter)}, ${timestamptz(now)}, queued.application_id${claimed?.values ?? sql``} from (${rows}) as queued(application_id, message)${claimed?.returning ?? sql``}`;
}

export interface ClaimedMail {
  id: string;
  kind: string;
  message: MailMessage;
  attempts: number;
  discardAfter: Date;
  /** The claim's token: the row is this claim's while it still holds this value. */
  lockedUntil: Date;
}

/** The values of a mail's row claimed as it is inserted (claimedMailRow). */
export interface ClaimedMailValues {
  id: string;
  kind: MailKind;
  message: MailMessage;
  attempts: number;
  nextAttemptAt: Date;
  lockedUntil: Date;
  discardAfter: Date;
  createdAt: Date;
  applicationId: string | null;
}

/** A mail's row claimed as it is inserted, and the claim to hand to this process's worker once the insert has committed. */
export interface QueuedMail {
  values: ClaimedMailValues;
  claimed: ClaimedMail;
}

/**
 * The claim of a mail queued claimed by this process (claimedMailRow, or enqueueMailsOf with
 * lockedUntil, whose statement returned `id`): tried once, as claimDue would leave it.
 */
export function queuedClaim(id: string, kind: MailKind, message: MailMessage, discardAfter: Date, lockedUntil: Date): ClaimedMail {
  return { id, kind, message, attempts: 1, discardAfter, lockedUntil };
}

/**
 * The row of a mail queued and claimed at once (ADR 0041): locked until now + lockMs and tried
 * once, as claimDue would leave it, so no worker claims it while this process sends it. Inserted
 * by insertClaimedMail's statement, alone (enqueueClaimedMail) or inside a caller's.
 */
export function claimedMailRow(kind: MailKind, message: MailMessage, now: Date, discardAfter: Date, lockMs: number, applicationId: string | null = null): QueuedMail {
  const id = randomUUID();
  const lockedUntil = new Date(now.getTime() + lockMs);
  return {
    values: { id, kind, message, attempts: 1, nextAttemptAt: now, lockedUntil, discardAfter, createdAt: now, applicationId },
    claimed: queuedClaim(id, kind, message, discardAfter, lockedUntil),
  };
}

/**
 * The insert of a claimed mail's row with its values as placeholders, for a statement built
 * once and prepared (db/prepared.ts): enqueueClaimedMail's, or one that queues the mail with
 * the change it is about (register's: verification/codes.ts). Execute it with
 * claimedMailPlaceholderValues of claimedMailRow's values.
 */
export function insertClaimedMail(db: Writer) {
  const value = (name: keyof ClaimedMailValues) => sql`${sql.placeholder(`mail_${name}`)}`;
  const time = (name: keyof ClaimedMailValues) => timestamptz(sql.placeholder(`mail_${name}`));
  return db.insert(mailQueue).values({
    id: value('id'),
    kind: value('kind'),
    message: sql`${value('message')}::jsonb`,
    attempts: value('attempts'),
    nextAttemptAt: time('nextAttemptAt'),
    lockedUntil: time('lockedUntil'),
    discardAfter: time('discardAfter'),
    createdAt: time('createdAt'),
    applicationId: value('applicationId'),
  });
}

/** insertClaimedMail's placeholder values for a claimed mail's row: times as ISO strings, the message as JSON text. */
export function claimedMailPlaceholderValues(values: ClaimedMailValues): Record<`mail_${keyof ClaimedMailValues}`, string | number | null> {
  return {
    mail_id: values.id,
    mail_kind: values.kind,
    mail_message: JSON.stringify(values.message),
    mail_attempts: values.attempts,
    mail_nextAttemptAt: values.nextAttemptAt.toISOString(),
    mail_lockedUntil: values.lockedUntil.toISOString(),
    mail_discardAfter: values.discardAfter.toISOString(),
    mail_createdAt: values.createdAt.toISOString(),
    mail_applicationId: values.applicationId,
  };
}

/** enqueueClaimedMail's insert, prepared (db/prepared.ts). */
const claimedMailInsertOf = oncePerDatabase((db) => insertClaimedMail(db).prepare('mail_queue_insert_claimed'));

/**
 * Queues a mail already claimed by this process: hand the claim to MailQueue.handOff once the
 * statement (or the transaction around it) has committed; never before, so a rolled-back mail
 * is never sent. Should this process not send it, any worker takes it once the lock runs out.
 */
export async function enqueueClaimedMail(db: Database, kind: MailKind, message: MailMessage, now: Date, discardAfter: Date, lockMs: number, applicationId: string | null = null): Promise<ClaimedMail> {
  const { values, claimed } = claimedMailRow(kind, message, now, discardAfter, lockMs, applicationId);
  await claimedMailInsertOf(db).execute(claimedMailPlaceholderValues(values));
  return claimed;
}

/**
 * Up to `limit` due rows no other worker holds, held by this one until a moment of its own:
 * that moment is the claim's token, so a worker whose lock ran out (a stalled send) cannot
 * delete or reschedule a row another worker has claimed since. One statement (the rows are
 * locked by its subquery's FOR UPDATE SKIP LOCKED): under load each claim waits its turn
 * behind the requests' statements, so a transaction of four would wait four times.
 */
export async function claimDue(db: Database, now: Date, lockMs: number, limit: number): Promise<ClaimedMail[]> {
  const lockedUntil = new Date(now.getTime() + lockMs);
  const due = db
    .select({ id: mailQueue.id })
    .from(mailQueue)
    .where(and(lte(mailQueue.nextAttemptAt, now), gt(mailQueue.discardAfter, now), or(isNull(mailQueue.lockedUntil), lt(mailQueue.lockedUntil, now))))
    .orderBy(asc(mailQueue.nextAttemptAt), asc(mailQueue.seq))
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await db
    .update(mailQueue)
    .set({ lockedUntil, attempts: sql`${mailQueue.attempts} + 1` })
    .where(inArray(mailQueue.id, due))
    .returning({ id: mailQueue.id, kind: mailQueue.kind, message: mailQueue.message, attempts: mailQueue.attempts, discardAfter: mailQueue.discardAfter });
  return rows.map((row) => ({ ...row, lockedUntil }));
}

/** This claim's hold on the row, still its own. */
function held(row: { id: string; lockedUntil: Date }) {
  return and(eq(mailQueue.id, row.id), eq(mailQueue.lockedUntil, row.lockedUntil));
}

/**
 * The delete of sent mails' rows, prepared (db/prepared.ts): it follows every mail, three per
 * application. Placeholder: rows, JSON text of [{ id, locked_until }] (each claim's token, ISO),
 * so that the mails sent while one delete waited go in the next, whatever their number.
 */
const removeClaimedOf = oncePerDatabase((db) =>
  db
    .delete(mailQueue)
    .where(sql`(${mailQueue.id}, ${mailQueue.lockedUntil}) in (select id, locked_until from json_to_recordset(${sql.placeholder('rows')}::json) as gone(id uuid, locked_until timestamptz))`)
    .prepare('mail_queue_remove_claimed'),
);

/** Sent, or given up: the rows go (the queue keeps no address or code longer than needed). */
export async function removeClaimed(db: Database, rows: readonly ClaimedMail[]): Promise<void> {
  if (rows.length === 0) return;
  await removeClaimedOf(db).execute({ rows: JSON.stringify(rows.map((row) => ({ id: row.id, locked_until: row.lockedUntil.toISOString() }))) });
}

/** Refused: tried again from `next`, by any worker. */
export async function rescheduleClaimed(db: Database, row: ClaimedMail, next: Date, code: string): Promise<void> {
  await db.update(mailQueue).set({ nextAttemptAt: next, lockedUntil: null, lastError: code }).where(held(row));
}

/** Claimed but not sent (the worker is closing): any worker may take them now. */
export async function releaseClaimed(db: Database, rows: ClaimedMail[]): Promise<void> {
  await Promise.all(rows.map((row) => db.update(mailQueue).set({ lockedUntil: null }).where(held(row))));
}

/** Deletes the mails that can no longer be sent in time; returns their kinds, for the log. */
export async function deleteStale(db: Database, now: Date): Promise<string[]> {
  const dropped = await db.delete(mailQueue).where(lte(mailQueue.discardAfter, now)).returning({ kind: mailQueue.kind });
  return dropped.map(({ kind }) => kind);
}
