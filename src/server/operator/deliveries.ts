/**
 * The operator's view of the hand-off to the banks (ADR 0033): what is pending, failed and
 * delivered, and a re-send. Only ids, counts, times and error codes: no personal data.
 */
import type { Database } from '../db/index.js';
import { listDeliveries, resendDelivery } from '../delivery/rows.js';
import { toJstIso } from '../time.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function printDeliveries(db: Database, print: (line: string) => void): Promise<void> {
  const rows = await listDeliveries(db);
  if (rows.length === 0) print('No deliveries.');
  for (const row of rows) {
    const when = row.deliveredAt && row.state === 'delivered' ? `delivered ${toJstIso(row.deliveredAt)}` : row.nextAttemptAt ? `next try ${toJstIso(row.nextAttemptAt)}` : '';
    print(`${row.applicationId} [${row.bankCode}] ${row.state} attempts ${row.attempts}${row.lastError ? ` last error ${row.lastError}` : ''} ${when}`.trimEnd());
  }
  const count = (state: string) => rows.filter((row) => row.state === state).length;
  print(`${count('pending')} pending, ${count('failed')} failed, ${count('delivered')} delivered`);
}

/** Returns whether the application had a delivery to re-send; `application` must be its id. */
export async function resend(db: Database, application: string, now: Date): Promise<boolean> {
  if (!UUID.test(application)) return false;
  return resendDelivery(db, application, now);
}
