import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { MailQueueTimings } from '../config.js';
import type { Database } from '../db/index.js';
import { mailQueue } from '../db/schema.js';
import type { MailMessage, MailSender } from './types.js';

/**
 * The durable mail queue (migration 0009): a request writes its mail into the database, in
 * its own transaction, and answers at once; a worker in every server process sends what is
 * due through the pooled transport, retries with exponential backoff while the SMTP server
 * fails or is down, and deletes a row once its mail is sent. Several processes share the
 * queue through PostgreSQL only: a row is claimed with FOR UPDATE SKIP LOCKED and held by
 * locked_until while it is being sent, so one mail goes out once even with many workers
 * (a process that dies mid-send frees it when locked_until passes).
 */

/** What a queued mail is: the log names this, never the address. */
export type MailKind = 'verification' | 'completion';

/** A database or a transaction: a mail is queued in the transaction that decides to send it. */
type Writer = Pick<Database, 'insert'>;

/** Queues a mail, to be sent before `discardAfter` or not at all. */
export async function enqueueMail(db: Writer, kind: MailKind, message: MailMessage, now: Date, discardAfter: Date): Promise<void> {
  await db.insert(mailQueue).values({ id: randomUUID(), kind, message, nextAttemptAt: now, discardAfter, createdAt: now });
}

/** The SMTP failure as the log and the row may keep it: its code and SMTP status, no text. */
function failureCode(error: unknown): string {
  if (!error || typeof error !== 'object') return 'unknown';
  const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
  return [typeof code === 'string' ? code : null, typeof responseCode === 'number' ? String(responseCode) : null].filter(Boolean).join(' ') || 'unknown';
}

const BATCH = 20;

export class MailQueue {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;

  constructor(
    private readonly db: Database,
    private readonly sender: MailSender,
    private readonly now: () => Date,
    private readonly log: FastifyBaseLogger,
    private readonly timings: MailQueueTimings,
  ) {}

  start(): void {
    this.stopped = false;
    this.wake();
  }

  /** Stops looking for mail and waits for the mails being sent now. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Looks for due mail now (after this process queued one), then again every pollMs. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.deliverDue()
      .then(() => undefined)
      .catch((error: unknown) => this.log.error({ err: error }, 'mail queue: delivery round failed'))
      .finally(() => {
        this.running = null;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.wake();
        } else {
          this.timer = setTimeout(() => this.wake(), this.timings.pollMs);
          this.timer.unref();
        }
      });
  }

  /** Waits for the round in progress, then sends what is still due: every mail due now has had its try. */
  async flush(): Promise<void> {
    await this.running;
    await this.deliverDue();
  }

  /** Sends every mail due now, batch by batch; returns how many were sent. */
  async deliverDue(): Promise<number> {
    let sent = 0;
    for (;;) {
      const claimed = await this.claim();
      if (claimed.length === 0) return sent;
      for (const row of claimed) if (await this.deliver(row)) sent += 1;
    }
  }

  /** Due rows no other worker holds, held by this one for lockMs. */
  private async claim() {
    const now = this.now();
    return this.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: mailQueue.id })
        .from(mailQueue)
        .where(and(lte(mailQueue.nextAttemptAt, now), or(isNull(mailQueue.lockedUntil), lt(mailQueue.lockedUntil, now))))
        .orderBy(asc(mailQueue.nextAttemptAt), asc(mailQueue.seq))
        .limit(BATCH)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(mailQueue)
        .set({ lockedUntil: new Date(now.getTime() + this.timings.lockMs), attempts: sql`${mailQueue.attempts} + 1` })
        .where(inArray(mailQueue.id, due.map((row) => row.id)))
        .returning({ id: mailQueue.id, kind: mailQueue.kind, message: mailQueue.message, attempts: mailQueue.attempts, discardAfter: mailQueue.discardAfter });
    });
  }

  private async deliver(row: { id: string; kind: string; message: MailMessage; attempts: number; discardAfter: Date }): Promise<boolean> {
    try {
      await this.sender.send(row.message);
      await this.db.delete(mailQueue).where(eq(mailQueue.id, row.id));
      return true;
    } catch (error) {
      const code = failureCode(error);
      const now = this.now();
      const delay = Math.min(this.timings.retryMaxMs, this.timings.retryFirstMs * 2 ** (row.attempts - 1));
      const next = new Date(now.getTime() + delay);
      if (next > row.discardAfter) {
        await this.db.delete(mailQueue).where(eq(mailQueue.id, row.id));
        this.log.error({ mailKind: row.kind, attempts: row.attempts, smtp: code }, 'mail queue: mail dropped, not sent in time');
      } else {
        await this.db.update(mailQueue).set({ nextAttemptAt: next, lockedUntil: null, lastError: code }).where(eq(mailQueue.id, row.id));
        this.log.warn({ mailKind: row.kind, attempts: row.attempts, smtp: code, retryInMs: delay }, 'mail queue: sending failed, will retry');
      }
      return false;
    }
  }
}
