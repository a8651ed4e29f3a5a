import { and, asc, eq, inArray, isNotNull, isNull, lt } from 'drizzle-orm';
import { deliveredRetentionDaysOf, recordRetentionYearsOf, type BankConfig } from '../../domain/bank/types.js';
import type { Hasher } from '../crypto.js';
import type { Database } from '../db/index.js';
import { deleteIdentityCheckSessions } from '../ekyc/forget.js';
import {
  applicationForms,
  applicationPins,
  applications,
  authTokens,
  bankDeliveries,
  documents,
  mailQueue,
} from '../db/schema.js';
import { yearsBefore } from '../records/read.js';
import { DAY_MS } from '../resume/applications.js';

/**
 * What a delivered application keeps (issue 15, ADR 0036). Once its bank confirmed receipt
 * (the delivery is delivered: a 2xx, nothing more to try) and the bank's
 * deliveredApplicationRetentionDays have passed, the application's personal data goes: its
 * answers, documents, PIN ciphertext and bindings, sessions, identity-check sessions (ours and
 * the provider side's rows), the mails about it, and the address, channel and device id of its
 * row. What stays is the stub: id, number, bank, type, times, flow version, the address's HMAC
 * (so that resume still answers "completed"), and the delivery row with its SHA-256 of the body
 * the bank took. Verification records are not touched: they are the legal record (ADR 0034).
 *
 * Run by the hourly retention job (plugins/retention.ts) in every process. Each application is
 * minimized in a transaction that starts by marking its delivery row, under the row's lock and
 * only while it is still delivered and not yet minimized; so two processes never both do it, a
 * re-send that came first leaves it alone (the row is due again), and a re-send that comes
 * after finds it minimized and is refused (rows.ts, resendDelivery).
 */

/** Applications minimized per query of the due ones (the job repeats until none is left). */
const BATCH = 100;

/** A delivery the bank confirmed before `before`, not sent again since, and not yet minimized. */
const minimizable = (before: Date) =>
  and(isNull(bankDeliveries.nextAttemptAt), isNotNull(bankDeliveries.deliveredAt), lt(bankDeliveries.deliveredAt, before), isNull(bankDeliveries.minimizedAt));

/** Leaves only the stub of one application; false when it is not (or no longer) due. */
async function minimizeOne(db: Database, hasher: Pick<Hasher, 'mail'>, applicationId: string, before: Date, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [marked] = await tx
      .update(bankDeliveries)
      .set({ minimizedAt: now })
      .where(and(eq(bankDeliveries.applicationId, applicationId), minimizable(before)))
      .returning({ id: bankDeliveries.applicationId });
    if (!marked) return false;
    for (const table of [applicationForms, documents, applicationPins, authTokens, mailQueue]) {
      await tx.delete(table).where(eq(table.applicationId, applicationId));
    }
    await deleteIdentityCheckSessions(tx, [applicationId]);
    const [row] = await tx.select({ mailAddress: applications.mailAddress }).from(applications).where(eq(applications.id, applicationId));
    const address = row?.mailAddress;
    await tx
      .update(applications)
      .set({ mailAddress: null, channel: null, deviceId: null, ...(address ? { mailHash: hasher.mail(address) } : {}) })
      .where(eq(applications.id, applicationId));
    return true;
  });
}

/** Minimizes every application of `bank` past its grace period after delivery; returns how many. */
export async function minimizeDelivered(db: Database, hasher: Pick<Hasher, 'mail'>, bank: BankConfig, now: Date): Promise<number> {
  const before = new Date(now.getTime() - deliveredRetentionDaysOf(bank) * DAY_MS);
  let minimized = 0;
  for (;;) {
    const due = await db
      .select({ id: bankDeliveries.applicationId })
      .from(bankDeliveries)
      .where(and(eq(bankDeliveries.bankCode, bank.code), minimizable(before)))
      .orderBy(asc(bankDeliveries.deliveredAt))
      .limit(BATCH);
    for (const { id } of due) if (await minimizeOne(db, hasher, id, before, now)) minimized += 1;
    if (due.length < BATCH) return minimized;
  }
}

/**
 * Deletes the stubs of `bank` whose application was completed longer ago than the bank keeps
 * its verification records (verificationRecordRetentionYears): the stub's one use past the
 * hand-off is to name, beside those records, the application they belong to. The delivery row
 * goes with it (ON DELETE CASCADE); the records have their own purge. Returns how many.
 */
export async function purgeStubs(db: Database, bank: BankConfig, now: Date): Promise<number> {
  const minimized = db.select({ id: bankDeliveries.applicationId }).from(bankDeliveries).where(and(eq(bankDeliveries.bankCode, bank.code), isNotNull(bankDeliveries.minimizedAt)));
  const deleted = await db
    .delete(applications)
    .where(and(eq(applications.bankCode, bank.code), lt(applications.applicationCompletedAt, yearsBefore(now, recordRetentionYearsOf(bank))), inArray(applications.id, minimized)))
    .returning({ id: applications.id });
  return deleted.length;
}
