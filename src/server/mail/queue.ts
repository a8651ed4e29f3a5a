import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
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

// Few per claim: each is held for lockMs, and a slow SMTP server sends them one after another.
const BATCH = 5;

interface ClaimedMail {
  id: string;
  kind: string;
  message: MailMessage;
  attempts: number;
  discardAfter: Date;
  lockedUntil: Date;
}

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

  /** Sends every mail due now, batch by batch (until stopped); returns how many were sent. */
  async deliverDue(): Promise<number> {
    await this.dropStale();
    let sent = 0;
    for (;;) {
      const claimed = await this.claim();
      if (claimed.length === 0) return sent;
      for (const [index, row] of claimed.entries()) {
        if (this.stopped) {
          // Closing: the rest is given back for any worker (or this one after a restart).
          await Promise.all(claimed.slice(index).map((left) => this.db.update(mailQueue).set({ lockedUntil: null }).where(this.held(left))));
          return sent;
        }
        if (await this.deliver(row)) sent += 1;
      }
    }
  }

  /** Mails that can no longer be sent in time (the code expired while no worker could send). */
  private async dropStale(): Promise<void> {
    const dropped = await this.db.delete(mailQueue).where(lte(mailQueue.discardAfter, this.now())).returning({ kind: mailQueue.kind });
    for (const { kind } of dropped) this.log.error({ mailKind: kind }, 'mail queue: mail dropped, not sent in time');
  }

  /**
   * Due rows no other worker holds, held by this one until a moment of its own: that moment is
   * the claim's token, so a worker whose lock ran out (a stalled send) cannot delete or
   * reschedule a row another worker has claimed since. One statement (the rows are locked by
   * its subquery and taken by its update), so no transaction around it: a worker polls every
   * pollMs, and most polls find nothing.
   */
  private async claim(): Promise<ClaimedMail[]> {
    const now = this.now();
    const lockedUntil = new Date(now.getTime() + this.timings.lockMs);
    const due = this.db
      .select({ id: mailQueue.id })
      .from(mailQueue)
      .where(and(lte(mailQueue.nextAttemptAt, now), gt(mailQueue.discardAfter, now), or(isNull(mailQueue.lockedUntil), lt(mailQueue.lockedUntil, now))))
      .orderBy(asc(mailQueue.nextAttemptAt), asc(mailQueue.seq))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    const rows = await this.db
      .update(mailQueue)
      .set({ lockedUntil, attempts: sql`${mailQueue.attempts} + 1` })
      .where(inArray(mailQueue.id, due))
      .returning({
        id: mailQueue.id,
        kind: mailQueue.kind,
        message: mailQueue.message,
        attempts: mailQueue.attempts,
        discardAfter: mailQueue.discardAfter,
        nextAttemptAt: mailQueue.nextAttemptAt,
        seq: mailQueue.seq,
      });
    // RETURNING has no order: sent in the order they fell due, as the subquery chose them.
    rows.sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || a.seq - b.seq);
    return rows.map(({ id, kind, message, attempts, discardAfter }) => ({ id, kind, message, attempts, discardAfter, lockedUntil }));
  }

  /** This worker's claim on the row, still held. */
  private held(row: ClaimedMail) {
    return and(eq(mailQueue.id, row.id), eq(mailQueue.lockedUntil, row.lockedUntil));
  }

  private async deliver(row: ClaimedMail): Promise<boolean> {
    try {
      await this.sender.send(row.message);
    } catch (error) {
      await this.reschedule(row, failureCode(error));
      return false;
    }
    // Sent: a failure from here on is the database's, and must not send the mail again.
    await this.db.delete(mailQueue).where(this.held(row));
    return true;
  }

  private async reschedule(row: ClaimedMail, code: string): Promise<void> {
    const delay = Math.min(this.timings.retryMaxMs, this.timings.retryFirstMs * 2 ** (row.attempts - 1));
    const next = new Date(this.now().getTime() + delay);
    if (next >= row.discardAfter) {
      await this.db.delete(mailQueue).where(this.held(row));
      this.log.error({ mailKind: row.kind, attempts: row.attempts, smtp: code }, 'mail queue: mail dropped, not sent in time');
      return;
    }
    await this.db.update(mailQueue).set({ nextAttemptAt: next, lockedUntil: null, lastError: code }).where(this.held(row));
    this.log.warn({ mailKind: row.kind, attempts: row.attempts, smtp: code, retryInMs: delay }, 'mail queue: sending failed, will retry');
  }
}
