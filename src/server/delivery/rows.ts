import { and, asc, eq, inArray, isNull, lt, lte, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Database } from '../db/index.js';
import { oncePerDatabase } from '../db/prepared.js';
import { bankDeliveries } from '../db/schema.js';
import { rowsOf, timestamptz } from '../db/values.js';

/**
 * The statements of the bank hand-off (migration 0021) on its rows; when to run them is the
 * worker's (worker.ts). As in the mail queue (ADR 0023), a claim's locked_until is its token:
 * a row is changed only while it still holds this claim's value.
 */

/**
 * Queues, as one part of a larger statement (a data-modifying CTE; ADR 0040), the hand-off of
 * each application `applications` selects (one column, its id), due now (a second for the same
 * application does nothing), so that the row is there exactly when that statement completes the
 * application. With `lockedUntil`, each row is queued claimed by this process until then
 * (attempts 1, as claimDueDeliveries would leave it; ADR 0041) and the statement returns the
 * `application_id` of the rows it inserted (not of one queued before), to hand to
 * DeliveryWorker.handOff once the statement has committed. The values may be placeholders of a
 * statement built once (db/prepared.ts).
 */
export function enqueueDeliveriesOf(applications: SQL, bankCode: string | SQLWrapper, now: Date | SQLWrapper, lockedUntil?: Date | SQLWrapper): SQL {
  const columns = [bankDeliveries.applicationId, bankDeliveries.bankCode, bankDeliveries.nextAttemptAt, bankDeliveries.createdAt];
  const at = timestamptz(now);
  const claimed = lockedUntil
    ? { columns: [bankDeliveries.lockedUntil, bankDeliveries.attempts], values: sql`, ${timestamptz(lockedUntil)}, 1`, returning: sql` returning ${sql.identifier(bankDeliveries.applicationId.name)}` }
    : null;
  const names = [...columns, ...(claimed?.columns ?? [])].map((column) => sql.identifier(column.name));
  return sql`insert into ${bankDeliveries} (${sql.join(names, sql`, `)}) select queued.application_id, ${bankCode}::varchar, ${at}, ${at}${claimed?.values ?? sql``} from (${applications}) as queued(application_id) on conflict do nothing${claimed?.returning ?? sql``}`;
}

export interface ClaimedDelivery {
  applicationId: string;
  bankCode: string;
  attempts: number;
  lockedUntil: Date;
}

/** The claim of a delivery queued claimed by this process, whose statement returned its row: tried once, as a claim leaves it. */
export function queuedDeliveryClaim(applicationId: string, bankCode: string, lockedUntil: Date): ClaimedDelivery {
  return { applicationId, bankCode, attempts: 1, lockedUntil };
}

/**
 * Queues the application's hand-off already claimed by this process, as completion's statement
 * does (enqueueDeliveriesOf): hand the claim to DeliveryWorker.handOff once it has committed.
 * Null when the application's delivery was queued before (not this claim's to send). Should this
 * process not send it, any worker takes it once the lock runs out.
 */
export async function enqueueClaimedDelivery(db: Database, applicationId: string, bankCode: string, now: Date, lockMs: number): Promise<ClaimedDelivery | null> {
  const lockedUntil = new Date(now.getTime() + lockMs);
  const result = await db.execute(enqueueDeliveriesOf(sql`select ${applicationId}::uuid`, bankCode, now, lockedUntil));
  const inserted = rowsOf(result).length > 0;
  return inserted ? queuedDeliveryClaim(applicationId, bankCode, lockedUntil) : null;
}

/** Up to `limit` due rows no other worker holds, held by this one until now + lockMs. */
export async function claimDueDeliveries(db: Database, now: Date, lockMs: number, limit: number): Promise<ClaimedDelivery[]> {
  const lockedUntil = new Date(now.getTime() + lockMs);
  const due = db
    .select({ id: bankDeliveries.applicationId })
    .from(bankDeliveries)
    .where(and(lte(bankDeliveries.nextAttemptAt, now), or(isNull(bankDeliveries.lockedUntil), lt(bankDeliveries.lockedUntil, now))))
    .orderBy(asc(bankDeliveries.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await db
    .update(bankDeliveries)
    .set({ lockedUntil, attempts: sql`${bankDeliveries.attempts} + 1` })
    .where(inArray(bankDeliveries.applicationId, due))
    .returning({ applicationId: bankDeliveries.applicationId, bankCode: bankDeliveries.bankCode, attempts: bankDeliveries.attempts });
  return rows.map((row) => ({ ...row, lockedUntil }));
}

/** This claim's hold on the row, still its own: a claim's values, or a prepared statement's placeholders. */
function held(row: { applicationId: string | SQLWrapper; lockedUntil: Date | SQLWrapper }) {
  return and(eq(bankDeliveries.applicationId, row.applicationId), eq(bankDeliveries.lockedUntil, row.lockedUntil));
}

/** A delivery the bank took: its claim, when, and the SHA-256 (hex) of the body it took. */
export interface DeliveredMark {
  row: ClaimedDelivery;
  deliveredAt: Date;
  payloadSha256: string;
}

/**
 * markDelivered's statement, prepared (db/prepared.ts): it follows every completed application.
 * Placeholder: marks, JSON text of [{ application_id, locked_until, delivered_at, payload_sha256 }]
 * (each claim's token and its outcome), so a worker marks all the deliveries taken meanwhile in one.
 */
const markDeliveredOf = oncePerDatabase((db) =>
  db
    .update(bankDeliveries)
    .set({ deliveredAt: sql`taken.delivered_at`, nextAttemptAt: null, lockedUntil: null, lastError: null, payloadSha256: sql`taken.payload_sha256` })
    .from(sql`json_to_recordset(${sql.placeholder('marks')}::json) as taken(application_id uuid, locked_until timestamptz, delivered_at timestamptz, payload_sha256 varchar)`)
    .where(sql`(${bankDeliveries.applicationId}, ${bankDeliveries.lockedUntil}) = (taken.application_id, taken.locked_until)`)
    .prepare('bank_delivery_mark_delivered'),
);

/**
 * The banks took them: nothing more to try; each row stays for the operator, with the SHA-256
 * of the body its bank took (the body itself is never stored; ADR 0036). A row whose claim ran
 * out meanwhile (another worker holds it now) is left alone.
 */
export async function markDelivered(db: Database, marks: readonly DeliveredMark[]): Promise<void> {
  if (marks.length === 0) return;
  const json = marks.map(({ row, deliveredAt, payloadSha256 }) => ({
    application_id: row.applicationId,
    locked_until: row.lockedUntil.toISOString(),
    delivered_at: deliveredAt.toISOString(),
    payload_sha256: payloadSha256,
  }));
  await markDeliveredOf(db).execute({ marks: JSON.stringify(json) });
}

/** Refused or unreachable: tried again from `next`, by any worker. */
export async function rescheduleDelivery(db: Database, row: ClaimedDelivery, next: Date, code: string): Promise<void> {
  await db.update(bankDeliveries).set({ nextAttemptAt: next, lockedUntil: null, lastError: code.slice(0, 60) }).where(held(row));
}

/** Claimed but not tried (the worker is closing): any worker may take them now. */
export async function releaseDeliveries(db: Database, rows: ClaimedDelivery[]): Promise<void> {
  await Promise.all(rows.map((row) => db.update(bankDeliveries).set({ lockedUntil: null }).where(held(row))));
}

/** What an operator's re-send did. */
export type Resend =
  | { kind: 'resent' }
  | { kind: 'none' }
  /** The application's data was removed after its delivery (ADR 0036): there is nothing to build the document from. */
  | { kind: 'minimized'; deliveredAt: Date | null; minimizedAt: Date; payloadSha256: string | null };

/**
 * An operator's re-send: due now, whatever its state, unless the application's data is gone.
 * The update names `minimized_at IS NULL`, so a re-send that waits for the minimization's
 * lock finds the row minimized and changes nothing (delivery/minimize.ts).
 */
export async function resendDelivery(db: Database, applicationId: string, now: Date): Promise<Resend> {
  const rows = await db
    .update(bankDeliveries)
    .set({ nextAttemptAt: now, lockedUntil: null })
    .where(and(eq(bankDeliveries.applicationId, applicationId), isNull(bankDeliveries.minimizedAt)))
    .returning({ id: bankDeliveries.applicationId });
  if (rows.length > 0) return { kind: 'resent' };
  const [row] = await db
    .select({ deliveredAt: bankDeliveries.deliveredAt, minimizedAt: bankDeliveries.minimizedAt, payloadSha256: bankDeliveries.payloadSha256 })
    .from(bankDeliveries)
    .where(eq(bankDeliveries.applicationId, applicationId));
  return row?.minimizedAt ? { kind: 'minimized', deliveredAt: row.deliveredAt, minimizedAt: row.minimizedAt, payloadSha256: row.payloadSha256 } : { kind: 'none' };
}

export type DeliveryState = 'pending' | 'failed' | 'delivered';

export interface DeliveryListing {
  applicationId: string;
  bankCode: string;
  state: DeliveryState;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  /** When the application's data was removed after delivery (ADR 0036); null while it is kept. */
  minimizedAt: Date | null;
}

/** Every delivery, oldest first: no personal data, only ids, counts and error codes. */
export async function listDeliveries(db: Database): Promise<DeliveryListing[]> {
  const rows = await db.select().from(bankDeliveries).orderBy(asc(bankDeliveries.createdAt));
  return rows.map((row) => ({
    applicationId: row.applicationId,
    bankCode: row.bankCode,
    // Failed: tried and refused at least once, still to be tried again.
    state: row.nextAttemptAt === null ? 'delivered' : row.lastError ? 'failed' : 'pending',
    attempts: row.attempts,
    lastError: row.lastError,
    nextAttemptAt: row.nextAttemptAt,
    deliveredAt: row.deliveredAt,
    minimizedAt: row.minimizedAt,
  }));
}
