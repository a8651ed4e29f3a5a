import type { FastifyBaseLogger } from 'fastify';
import type { MailQueueSettings } from '../config.js';
import type { Database } from '../db/index.js';
import { backoffMs, WorkLoop } from '../db/work-loop.js';
import { GatheredWrites } from '../db/gathered-writes.js';
import { claimDue, deleteStale, releaseClaimed, removeClaimed, rescheduleClaimed, type ClaimedMail } from './queue-rows.js';
import type { MailSender } from './types.js';

/**
 * The durable mail queue (migration 0009): a request writes its mail into the database, in
 * its own transaction, and answers at once; a worker in every server process sends what is
 * due through the pooled transport, several mails at once, retries with exponential backoff
 * while the SMTP server fails or is down, and deletes a row once its mail is sent. Several
 * processes share the queue through PostgreSQL only: a row is claimed with FOR UPDATE SKIP
 * LOCKED and held by locked_until while it is being sent, so one mail goes out once even with
 * many workers (a process that dies mid-send frees it when locked_until passes). A process that
 * queues a mail itself claims it in the same INSERT and hands it to its worker once committed
 * (handOff, ADR 0041): no claim statement, and no other worker takes it until the lock runs
 * out. The rows' statements are in queue-rows.ts.
 */

/** The SMTP failure as the log and the row may keep it: its code and SMTP status, no text. */
function failureCode(error: unknown): string {
  if (!error || typeof error !== 'object') return 'unknown';
  const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
  return [typeof code === 'string' ? code : null, typeof responseCode === 'number' ? String(responseCode) : null].filter(Boolean).join(' ') || 'unknown';
}

/**
 * How often a worker deletes the mails that can no longer be sent in time. The claim never
 * takes one (it asks for discard_after in the future), so this only keeps the table small and
 * says so in the log: once a minute, not on every round (a round per queued mail would add a
 * statement to every register and completion).
 */
export const STALE_SWEEP_MS = 60_000;

export class MailQueue {
  /** When this worker last deleted the stale mails (the app's clock); never yet. */
  private sweptAt = Number.NEGATIVE_INFINITY;
  /** Every send under way, handed off or claimed by a round: at most `concurrency`. */
  private readonly sending = new Set<Promise<void>>();
  /** Mails this process claimed as it queued them, waiting for a free slot. */
  private readonly handed: ClaimedMail[] = [];
  /**
   * Sent mails' rows, deleted sentRowsGatherMs after the first in one statement with every mail
   * sent meanwhile. A delete that fails leaves the rows claimed; once their lock runs out
   * (lockMs) they are sent again: a mail is sent at least once.
   */
  private readonly sentRows: GatheredWrites<ClaimedMail>;
  /** Ends a round's wait for a free slot early: this process has queued a mail. */
  private nudge: (() => void) | null = null;
  private readonly loop: WorkLoop;

  constructor(
    private readonly db: Database,
    private readonly sender: MailSender,
    private readonly now: () => Date,
    private readonly log: FastifyBaseLogger,
    private readonly settings: MailQueueSettings,
  ) {
    this.sentRows = new GatheredWrites(
      settings.sentRowsGatherMs,
      (rows) => removeClaimed(db, rows),
      (error, rows) => log.error({ err: error, mails: rows.length }, 'mail queue: sent mail not deleted, to be sent again after its lock'),
    );
    this.loop = new WorkLoop(
      () => this.deliverDue(),
      settings.pollMs,
      (error: unknown) => log.error({ err: error }, 'mail queue: delivery round failed'),
      () => this.nudge?.(),
    );
  }

  /**
   * Sends mails this process queued already claimed (enqueueClaimedMail), without a claim
   * statement: in a free slot now, else in the first that frees. Call it only once the insert
   * has committed. A mail whose lock has run out by its turn is left to the claims; one handed
   * to a closing worker is given back for any worker at once.
   */
  handOff(...rows: ClaimedMail[]): void {
    if (this.loop.isStopped) {
      void this.release(rows);
      return;
    }
    this.handed.push(...rows);
    this.sendHanded();
  }

  start(): void {
    this.loop.start();
  }

  /** Stops looking for mail and waits for the mails being sent now; the handed ones not started are given back. */
  async stop(): Promise<void> {
    await this.loop.stop();
    await this.release(this.handed.splice(0));
    await this.idle();
  }

  /**
   * Looks for due mail now (this process, or through the database's notice another one, queued
   * a mail), then again every pollMs.
   */
  wake(): void {
    this.loop.wake();
  }

  /**
   * Sends what is due now and waits until no round is left: every mail due now has had its
   * try. Through the worker's own rounds, so a flush also waits for the mails a round (woken by
   * a notice, or another flush) claimed before it, and for the handed mails' sends. A stopped
   * queue sends in this call.
   */
  async flush(): Promise<void> {
    if (this.loop.isStopped) await this.deliverDue();
    else await this.loop.settle();
    await this.idle();
  }

  /**
   * Waits until no send is under way (a handed mail waits for a slot only while sends are under
   * way) and every sent mail's row is deleted.
   */
  private async idle(): Promise<void> {
    await this.sentRows.settle(() => this.sending);
  }

  /**
   * Sends every mail due now, up to `concurrency` at once with the handed ones: as each send
   * ends its slot takes the next due mail (a slow one holds up only its own slot), and a mail
   * queued meanwhile is claimed into a free slot at once. Returns how many of the mails it
   * claimed were sent. A database failure ends the round once its sends under way have ended.
   */
  async deliverDue(): Promise<number> {
    await this.dropStale();
    let sent = 0;
    // A database error (the first) from a claim or a send's own statements.
    const failures: unknown[] = [];
    const mine = new Set<Promise<void>>();
    // The last claim filled every free slot, so more mail may be due.
    let more = true;
    for (;;) {
      const free = this.settings.concurrency - this.sending.size;
      const looking = (more || this.loop.woken) && !this.loop.isStopped && failures.length === 0;
      if (free > 0 && looking) {
        this.loop.takeWake();
        let claimed: ClaimedMail[];
        try {
          claimed = await claimDue(this.db, this.now(), this.settings.lockMs, free);
        } catch (error) {
          failures.push(error);
          continue;
        }
        more = claimed.length === free;
        if (this.loop.isStopped) {
          // Closing: given back for any worker (or this one after a restart).
          await releaseClaimed(this.db, claimed);
          continue;
        }
        for (const row of claimed) {
          const send = this.sendInSlot(row).then(
            (ok) => {
              if (ok) sent += 1;
            },
            (error: unknown) => {
              failures.push(error);
            },
          );
          mine.add(send);
          void send.finally(() => mine.delete(send));
        }
        continue;
      }
      // Still looking but every slot is taken (handed mails too): wait for one to free.
      const waitingFor = looking ? this.sending : mine;
      if (waitingFor.size === 0) break;
      await Promise.race([...waitingFor, new Promise<void>((resolve) => (this.nudge = resolve))]);
      this.nudge = null;
    }
    if (failures.length > 0) throw failures[0];
    return sent;
  }

  /** One send in a slot; when it ends, the slot goes to a handed mail first (its lock is running). */
  private sendInSlot(row: ClaimedMail): Promise<boolean> {
    const send = this.deliver(row);
    const slot = send.then(
      () => undefined,
      () => undefined,
    );
    this.sending.add(slot);
    void slot.finally(() => {
      this.sending.delete(slot);
      this.sendHanded();
    });
    return send;
  }

  /** Starts the handed mails that have a slot now; one whose lock ran out meanwhile is the claims'. */
  private sendHanded(): void {
    while (this.handed.length > 0 && this.sending.size < this.settings.concurrency && !this.loop.isStopped) {
      const row = this.handed.shift();
      if (!row || this.now() >= row.lockedUntil) continue;
      this.sendInSlot(row).catch((error: unknown) => this.log.error({ err: error, mailKind: row.kind }, 'mail queue: delivery failed'));
    }
  }

  /** Claimed but not to be sent here: any worker may take them now. */
  private async release(rows: ClaimedMail[]): Promise<void> {
    if (rows.length === 0) return;
    await releaseClaimed(this.db, rows).catch((error: unknown) => this.log.error({ err: error }, 'mail queue: could not give back handed mail'));
  }

  /** Mails that can no longer be sent in time (the code expired while no worker could send). */
  private async dropStale(): Promise<void> {
    const now = this.now().getTime();
    if (now - this.sweptAt < STALE_SWEEP_MS) return;
    this.sweptAt = now;
    for (const kind of await deleteStale(this.db, this.now())) this.log.error({ mailKind: kind }, 'mail queue: mail dropped, not sent in time');
  }

  private async deliver(row: ClaimedMail): Promise<boolean> {
    try {
      await this.sender.send(row.message, row.id);
    } catch (error) {
      await this.reschedule(row, failureCode(error));
      return false;
    }
    // Sent: the slot is free for the next mail now; the row goes with the other sent ones.
    this.sentRows.add(row);
    return true;
  }

  private async reschedule(row: ClaimedMail, code: string): Promise<void> {
    const delay = backoffMs(this.settings, row.attempts);
    const next = new Date(this.now().getTime() + delay);
    if (next >= row.discardAfter) {
      await removeClaimed(this.db, [row]);
      this.log.error({ mailKind: row.kind, attempts: row.attempts, smtp: code }, 'mail queue: mail dropped, not sent in time');
      return;
    }
    await rescheduleClaimed(this.db, row, next, code);
    this.log.warn({ mailKind: row.kind, attempts: row.attempts, smtp: code, retryInMs: delay }, 'mail queue: sending failed, will retry');
  }
}
