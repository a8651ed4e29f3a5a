import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { request } from 'undici';
import type { DeliverySettings } from '../config.js';
import type { Database } from '../db/index.js';
import { backoffMs, WorkLoop } from '../db/work-loop.js';
import { GatheredWrites } from '../db/gathered-writes.js';
import { applicationDeliveryOf } from './payload.js';
import { claimDueDeliveries, markDelivered, releaseDeliveries, rescheduleDelivery, type ClaimedDelivery, type DeliveredMark } from './rows.js';
import { IDEMPOTENCY_HEADER, signatureHeaders, type SigningKey } from './signature.js';

/**
 * The hand-off worker, one in every server process (ADR 0033): claims due deliveries from
 * bank_deliveries the way the mail queue claims mail (FOR UPDATE SKIP LOCKED, locked_until as
 * the claim's token; ADR 0023), POSTs each application's signed document to its bank, marks it
 * delivered on a 2xx and otherwise tries again after an exponential backoff, for as long as it
 * takes. Woken by the database's notice of a new delivery, else every pollMs.
 */

/** Where a bank's deliveries go now, or null when nowhere yet (the development receiver before listening). */
export type EndpointOf = (bankCode: string) => string | null;

/** A failure as the row and the log keep it: the HTTP status or the network error's code, no text. */
function failureCode(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'timeout';
  const { code, cause } = (error ?? {}) as { code?: unknown; cause?: { code?: unknown } };
  if (typeof code === 'string' && !code.startsWith('UND_ERR_')) return code;
  if (typeof cause?.code === 'string') return cause.code;
  return 'network';
}

export class DeliveryWorker {
  private readonly loop: WorkLoop;
  /** The handed deliveries under way… */
  private readonly handed = new Set<Promise<void>>();
  /** …and those waiting for a slot. */
  private readonly waiting: ClaimedDelivery[] = [];
  /**
   * The deliveries the banks took, marked delivered markGatherMs after the first in one
   * statement. A mark that fails leaves the rows claimed; once their lock runs out they are
   * delivered again, with the same idempotency key.
   */
  private readonly taken: GatheredWrites<DeliveredMark>;

  constructor(
    private readonly db: Database,
    private readonly endpointOf: EndpointOf,
    private readonly key: SigningKey,
    private readonly now: () => Date,
    private readonly log: FastifyBaseLogger,
    private readonly settings: DeliverySettings,
  ) {
    this.taken = new GatheredWrites(
      settings.markGatherMs,
      async (marks) => {
        await markDelivered(db, marks);
        for (const { row } of marks) log.info({ applicationId: row.applicationId, bankCode: row.bankCode, attempts: row.attempts }, 'bank delivery: delivered');
      },
      (error, marks) => log.error({ err: error, deliveries: marks.length }, 'bank delivery: not marked delivered, to be delivered again after its lock'),
    );
    this.loop = new WorkLoop(() => this.deliverDue(), settings.pollMs, (error: unknown) => log.error({ err: error }, 'bank delivery: round failed'));
  }

  /**
   * Delivers what this process queued already claimed (the completion's statement, ADR 0041), without a
   * claim statement; call it only once the insert has committed. Up to `concurrency` at once,
   * the rest as those end; a round claims only into the slots they leave. One whose lock has
   * run out by its turn is left to the claims; a closing worker gives it back for any worker.
   */
  handOff(row: ClaimedDelivery): void {
    if (this.loop.isStopped) {
      void this.giveBack([row]);
      return;
    }
    this.waiting.push(row);
    this.deliverHanded();
  }

  private deliverHanded(): void {
    while (this.waiting.length > 0 && this.handed.size < this.settings.concurrency && !this.loop.isStopped) {
      const row = this.waiting.shift();
      if (!row || this.now() >= row.lockedUntil) continue;
      const delivery = this.deliver(row).then(
        () => undefined,
        (error: unknown) => this.log.error({ err: error, applicationId: row.applicationId }, 'bank delivery: failed'),
      );
      this.handed.add(delivery);
      void delivery.finally(() => {
        this.handed.delete(delivery);
        this.deliverHanded();
      });
    }
  }

  private async giveBack(rows: ClaimedDelivery[]): Promise<void> {
    if (rows.length === 0) return;
    await releaseDeliveries(this.db, rows).catch((error: unknown) => this.log.error({ err: error }, 'bank delivery: could not give back a handed delivery'));
  }

  start(): void {
    this.loop.start();
  }

  /** Stops looking for deliveries and waits for the ones under way, handed ones too, and their marks. */
  async stop(): Promise<void> {
    await this.loop.stop();
    await this.giveBack(this.waiting.splice(0));
    await this.taken.settle(() => this.handed);
  }

  /** Looks for due deliveries now, then again every pollMs. */
  wake(): void {
    this.loop.wake();
  }

  /** Tries every delivery due now, `concurrency` at a time; returns how many the banks took (marked delivered soon after). */
  async deliverDue(): Promise<number> {
    let delivered = 0;
    for (;;) {
      // The slots the handed deliveries leave.
      const free = this.settings.concurrency - this.handed.size;
      if (free <= 0) return delivered;
      const claimed = await claimDueDeliveries(this.db, this.now(), this.settings.lockMs, free);
      if (this.loop.isStopped) {
        await releaseDeliveries(this.db, claimed);
        return delivered;
      }
      const results = await Promise.all(claimed.map((row) => this.deliver(row)));
      delivered += results.filter(Boolean).length;
      if (claimed.length < free) return delivered;
    }
  }

  private async deliver(row: ClaimedDelivery): Promise<boolean> {
    const endpoint = this.endpointOf(row.bankCode);
    if (!endpoint) {
      await this.reschedule(row, 'no-endpoint');
      return false;
    }
    const document = await this.documentOf(row);
    if (document === null) return false;
    const body = Buffer.from(document);
    let status: number;
    try {
      // undici's request(), not fetch(): a fifth of fetch's CPU per request (bench/load.ts), and
      // no redirect followed, so a signed document goes only where the bank's endpoint says.
      const response = await request(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [IDEMPOTENCY_HEADER]: row.applicationId, ...signatureHeaders(this.key, body, this.now()) },
        body,
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
      status = response.statusCode;
      // Read to the end, not kept: the body may quote what we sent.
      await response.body.dump();
    } catch (error) {
      await this.reschedule(row, failureCode(error));
      return false;
    }
    if (status < 200 || status >= 300) {
      await this.reschedule(row, `http ${status}`);
      return false;
    }
    this.taken.add({ row, deliveredAt: this.now(), payloadSha256: createHash('sha256').update(body).digest('hex') });
    return true;
  }

  /** The application's document as JSON, or null (rescheduled) when it cannot be built. */
  private async documentOf(row: ClaimedDelivery): Promise<string | null> {
    try {
      return JSON.stringify(await applicationDeliveryOf(this.db, row.applicationId));
    } catch (error) {
      // Our fault, not the bank's: logged (masked, by the log policy) and retried like a refusal.
      this.log.error({ err: error, applicationId: row.applicationId }, 'bank delivery: document could not be built');
      await this.reschedule(row, 'document');
      return null;
    }
  }

  private async reschedule(row: ClaimedDelivery, code: string): Promise<void> {
    const delay = backoffMs(this.settings, row.attempts);
    await rescheduleDelivery(this.db, row, new Date(this.now().getTime() + delay), code);
    this.log.warn({ applicationId: row.applicationId, bankCode: row.bankCode, attempts: row.attempts, error: code, retryInMs: delay }, 'bank delivery: failed, will retry');
  }
}
