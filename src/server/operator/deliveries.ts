/**
 * The operator's view of the hand-off to the banks (ADR 0033): what is pending, failed and
 * delivered, and a re-send. Only ids, counts, times and error codes: no personal data.
 */
import type { Database } from '../db/index.js';
import { listDeliveries, resendDelivery, type Resend } from '../delivery/rows.js';
import { toJstIso } from '../time.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function printDeliveries(db: Database, print: (line: string) => void): Promise<void> {
  const rows = await listDeliveries(db);
  if (rows.length === 0) print('No deliveries.');
  for (const row of rows) {
    const when = row.deliveredAt && row.state === 'delivered' ? `delivered ${toJstIso(row.deliveredAt)}` : row.nextAttemptAt ? `next try ${toJstIso(row.nextAttemptAt)}` : '';
    const removed = row.minimizedAt ? ` data removed ${toJstIso(row.minimizedAt)}` : '';
    print(`${row.applicationId} [${row.bankCode}] ${row.state} attempts ${row.attempts}${row.lastError ? ` last error ${row.lastError}` : ''} ${when}${removed}`.trimEnd());
  }
  const count = (state: string) => rows.filter((row) => row.state === state).length;
  print(`${count('pending')} pending, ${count('failed')} failed, ${count('delivered')} delivered`);
}

/**
 * Re-sends an application's delivery; returns whether it will be sent, having printed why not.
 * `application` must be its id.
 */
export async function resend(db: Database, application: string, now: Date, print: (line: string) => void): Promise<boolean> {
  const result: Resend = UUID.test(application) ? await resendDelivery(db, application, now) : { kind: 'none' };
  if (result.kind === 'resent') print(`Delivery of application ${application} will be sent again now.`);
  if (result.kind === 'none') print(`No delivery for application ${application}.`);
  if (result.kind === 'minimized') {
    const delivered = result.deliveredAt ? ` after the bank confirmed receipt on ${toJstIso(result.deliveredAt)}` : '';
    print(
      `Application ${application} cannot be sent again: its data was removed on ${toJstIso(result.minimizedAt)}${delivered} (docs/adr/0036). ` +
        `The bank holds what it received${result.payloadSha256 ? ` (body SHA-256 ${result.payloadSha256})` : ''}: ask the bank for its copy.`,
    );
  }
  return result.kind === 'resent';
}
