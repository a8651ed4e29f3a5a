import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig, type MailQueueSettings } from '../../src/server/config.js';
import { openDatabase, type OpenedDatabase } from '../../src/server/db/index.js';
import { mailQueue } from '../../src/server/db/schema.js';
import type { MailMessage, MailSender } from '../../src/server/mail/index.js';
import { MailQueue, STALE_SWEEP_MS } from '../../src/server/mail/queue.js';
import { enqueueClaimedMail, enqueueMail } from '../../src/server/mail/queue-rows.js';
import { backends, HOUR, MINUTE, startTestServer, TestClock, throwawaySchema, type TestServer } from './helpers.js';

/**
 * The queue's worker against a sender the test holds: how many mails it sends at once, that a
 * slow send holds up only its own slot, that a mail queued meanwhile does not wait for the
 * others, and that a claim whose hold ran out cannot touch the row another worker has claimed
 * since. A mail queued already claimed (ADR 0041): sent by the process that queued it without
 * any other worker taking it, by another worker only once the lock has run out when that
 * process died or the send failed, and never when its insert was rolled back. Then the wake-up
 * of a process that did not queue the mail (the database's notice).
 */

/** A sender whose every send waits until the test ends it. */
class HeldSender implements MailSender {
  readonly started: string[] = [];
  readonly sent: string[] = [];
  inFlight = 0;
  mostAtOnce = 0;
  private readonly pending = new Map<string, { resolve(): void; reject(error: Error): void }>();

  send(message: MailMessage): Promise<void> {
    this.started.push(message.to);
    this.inFlight += 1;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.inFlight);
    return new Promise((resolve, reject) => this.pending.set(message.to, { resolve, reject }));
  }

  /** Ends the send to `to`: taken by the SMTP server, or refused with `error`. */
  end(to: string, error?: Error): void {
    const pending = this.pending.get(to);
    if (!pending) throw new Error(`no send to ${to} under way`);
    this.pending.delete(to);
    this.inFlight -= 1;
    if (error) pending.reject(error);
    else {
      this.sent.push(to);
      pending.resolve();
    }
  }

  endAll(): void {
    for (const to of [...this.pending.keys()]) this.end(to);
  }
}

const message = (to: string): MailMessage => ({ from: { name: 'bank', address: 'bank@example.jp' }, to, subject: 'subject', text: 'text' });

describe.each(backends)('the mail queue worker ($name)', (backend) => {
  let opened: OpenedDatabase | null = null;
  let schema: Awaited<ReturnType<typeof throwawaySchema>> | null = null;
  const queues: MailQueue[] = [];
  const senders: HeldSender[] = [];

  afterEach(async () => {
    for (const sender of senders) sender.endAll();
    await Promise.all(queues.map((queue) => queue.stop()));
    queues.length = 0;
    senders.length = 0;
    await opened?.close();
    await schema?.drop();
    opened = null;
    schema = null;
  });

  const open = async (): Promise<OpenedDatabase> => {
    schema = backend.url ? await throwawaySchema(backend.url) : null;
    opened = await openDatabase({ dataDir: ':memory:', databaseUrl: schema?.databaseUrl ?? null });
    return opened;
  };

  /** A started worker that looks for mail only when woken (its poll is an hour). */
  const worker = (db: OpenedDatabase['db'], clock: TestClock, settings: Partial<MailQueueSettings> = {}) => {
    const sender = new HeldSender();
    const queue = new MailQueue(db, sender, clock.now, Fastify().log, { ...loadConfig({}).mailQueue, pollMs: HOUR, ...settings });
    queue.start();
    queues.push(queue);
    senders.push(sender);
    return { queue, sender };
  };

  const queueMails = async (db: OpenedDatabase['db'], clock: TestClock, addresses: string[]) => {
    for (const to of addresses) await enqueueMail(db, 'verification', message(to), clock.now(), new Date(clock.now().getTime() + 10 * MINUTE));
  };

  it('sends up to its concurrency at once, and a slot that frees takes the next mail while a slow one still hangs', async () => {
    const { db } = await open();
    const clock = new TestClock();
    const addresses = ['a', 'b', 'c', 'd', 'e'].map((name) => `${name}@example.jp`);
    await queueMails(db, clock, addresses);
    const { queue, sender } = worker(db, clock, { concurrency: 3 });
    queue.wake();
    await vi.waitFor(() => expect(sender.started).toHaveLength(3));
    // 'a' hangs (a slow SMTP answer); 'b' ends, and its slot takes 'd' at once.
    sender.end('b@example.jp');
    await vi.waitFor(() => expect(sender.started).toHaveLength(4));
    expect(sender.inFlight).toBe(3);
    sender.end('c@example.jp');
    sender.end('d@example.jp');
    await vi.waitFor(() => expect(sender.started).toHaveLength(5));
    sender.endAll();
    await queue.flush();
    expect(sender.mostAtOnce).toBe(3);
    expect([...sender.sent].sort()).toEqual(addresses);
    expect(await db.select().from(mailQueue)).toEqual([]);
  });

  it('deletes the mails that can no longer be sent in time at most once a minute, and never sends one', async () => {
    const { db } = await open();
    const clock = new TestClock();
    const { queue, sender } = worker(db, clock);
    const queueShortLived = () => enqueueMail(db, 'verification', message('late@example.jp'), clock.now(), new Date(clock.now().getTime() + 10_000));
    await queue.flush(); // a round, and so a sweep, now
    await queueShortLived();
    clock.advance(20_000); // past its discard time, 20 s after the sweep: kept, not sent
    await queue.flush();
    expect(sender.started).toEqual([]);
    expect(await db.select().from(mailQueue)).toHaveLength(1);
    clock.advance(STALE_SWEEP_MS); // the next round sweeps
    await queue.flush();
    expect(sender.started).toEqual([]);
    expect(await db.select().from(mailQueue)).toEqual([]);
  });

  it('starts a mail queued while another is being sent at once, without waiting for that one', async () => {
    const { db } = await open();
    const clock = new TestClock();
    const { queue, sender } = worker(db, clock);
    await queueMails(db, clock, ['slow@example.jp']);
    queue.wake();
    await vi.waitFor(() => expect(sender.started).toEqual(['slow@example.jp']));
    await queueMails(db, clock, ['next@example.jp']);
    queue.wake();
    await vi.waitFor(() => expect(sender.started).toEqual(['slow@example.jp', 'next@example.jp']));
  });

  it('lets a claim whose hold ran out neither delete nor reschedule the row another worker claimed since', async () => {
    const { db } = await open();
    const clock = new TestClock();
    await queueMails(db, clock, ['stalled@example.jp']);
    const first = worker(db, clock, { lockMs: MINUTE });
    first.queue.wake();
    await vi.waitFor(() => expect(first.sender.started).toHaveLength(1));
    // The first worker's send stalls past its hold; a second worker takes the mail over.
    clock.advance(2 * MINUTE);
    const second = worker(db, clock, { lockMs: MINUTE });
    second.queue.wake();
    await vi.waitFor(() => expect(second.sender.started).toHaveLength(1));
    const [claimed] = await db.select().from(mailQueue);
    expect(claimed).toMatchObject({ attempts: 2 });
    // The first send ends: taken, but the row is the second claim's and stays.
    first.sender.end('stalled@example.jp');
    await first.queue.stop();
    expect(await db.select().from(mailQueue)).toEqual([claimed]);
    // The second is refused: its own claim reschedules the row.
    second.sender.end('stalled@example.jp', Object.assign(new Error('try again later'), { responseCode: 451 }));
    await second.queue.stop();
    const [rescheduled] = await db.select().from(mailQueue);
    expect(rescheduled).toMatchObject({ attempts: 2, lockedUntil: null, lastError: '451' });
  });
  describe('queued already claimed', () => {
    const lockMs = MINUTE;
    const queueClaimed = (db: OpenedDatabase['db'], clock: TestClock, to: string) =>
      enqueueClaimedMail(db, 'verification', message(to), clock.now(), new Date(clock.now().getTime() + 10 * MINUTE), lockMs);
    /** `by`, woken, claims the mail to `to` and sends it; the queue is empty after. `whileSending` looks at the row meanwhile. */
    const sentBy = async (db: OpenedDatabase['db'], by: ReturnType<typeof worker>, to: string, whileSending?: () => Promise<void>) => {
      by.queue.wake();
      await vi.waitFor(() => expect(by.sender.started).toEqual([to]));
      await whileSending?.();
      by.sender.end(to);
      await by.queue.flush();
      expect(await db.select().from(mailQueue)).toEqual([]);
    };

    it('is sent by the process it is handed to, and no other worker takes it meanwhile', async () => {
      const { db } = await open();
      const clock = new TestClock();
      const mine = worker(db, clock, { lockMs });
      const other = worker(db, clock, { lockMs });
      const claimed = await queueClaimed(db, clock, 'handed@example.jp');
      expect(await db.select().from(mailQueue)).toMatchObject([{ attempts: 1, lockedUntil: claimed.lockedUntil }]);
      await other.queue.flush();
      expect(other.sender.started).toEqual([]);
      mine.queue.handOff(claimed);
      await vi.waitFor(() => expect(mine.sender.started).toEqual(['handed@example.jp']));
      mine.sender.end('handed@example.jp');
      await mine.queue.flush();
      await other.queue.flush();
      expect(mine.sender.sent).toEqual(['handed@example.jp']);
      expect(other.sender.started).toEqual([]);
      expect(await db.select().from(mailQueue)).toEqual([]);
    });

    it('frees its slot once sent, before its row is deleted, and the rows of the mails sent meanwhile go after', async () => {
      const { db } = await open();
      const clock = new TestClock();
      const mine = worker(db, clock, { lockMs, concurrency: 1 });
      const addresses = ['a', 'b', 'c'].map((name) => `${name}@example.jp`);
      for (const to of addresses) mine.queue.handOff(await queueClaimed(db, clock, to));
      await vi.waitFor(() => expect(mine.sender.started).toEqual(addresses.slice(0, 1)));
      // Another transaction holds the rows: a delete waits for it (on PGlite, every statement does).
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked = () => {};
      const holding = new Promise<void>((resolve) => (locked = resolve));
      const holder = db.transaction(async (tx) => {
        await tx.select().from(mailQueue).for('update');
        locked();
        await held;
      });
      await holding;
      mine.sender.end('a@example.jp');
      await vi.waitFor(() => expect(mine.sender.started).toEqual(addresses.slice(0, 2)));
      mine.sender.end('b@example.jp');
      await vi.waitFor(() => expect(mine.sender.started).toEqual(addresses));
      mine.sender.end('c@example.jp');
      release();
      await holder;
      await mine.queue.flush();
      expect(mine.sender.sent).toEqual(addresses);
      expect(await db.select().from(mailQueue)).toEqual([]);
    });

    it('keeps the rows of mails sent close together until its gathering ends, then deletes them together; a flush at once', async () => {
      const { db } = await open();
      const clock = new TestClock();
      const rows = async () => (await db.select().from(mailQueue)).length;
      const gathering = worker(db, clock, { lockMs, sentRowsGatherMs: HOUR });
      const addresses = ['a', 'b', 'c'].map((name) => `${name}@example.jp`);
      for (const to of addresses) gathering.queue.handOff(await queueClaimed(db, clock, to));
      await vi.waitFor(() => expect(gathering.sender.started).toEqual(addresses));
      gathering.sender.end('a@example.jp');
      await new Promise((resolve) => setTimeout(resolve, 100));
      gathering.sender.end('b@example.jp');
      gathering.sender.end('c@example.jp');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await rows()).toBe(3);
      await gathering.queue.flush();
      expect(await rows()).toBe(0);

      const brief = worker(db, clock, { lockMs, sentRowsGatherMs: 50 });
      brief.queue.handOff(await queueClaimed(db, clock, 'd@example.jp'));
      await vi.waitFor(() => expect(brief.sender.started).toEqual(['d@example.jp']));
      brief.sender.end('d@example.jp');
      await vi.waitFor(async () => expect(await rows()).toBe(0));
    });

    it('is sent by another worker once the lock has run out when the process that queued it died before sending it', async () => {
      const { db } = await open();
      const clock = new TestClock();
      // Queued and committed, never handed: the process died right after.
      await queueClaimed(db, clock, 'orphan@example.jp');
      const other = worker(db, clock, { lockMs });
      await other.queue.flush();
      expect(other.sender.started).toEqual([]);
      clock.advance(lockMs + 1);
      await sentBy(db, other, 'orphan@example.jp', async () => expect(await db.select().from(mailQueue)).toMatchObject([{ attempts: 2 }]));
    });

    it('is never sent when the transaction that queued it rolled back', async () => {
      const { db } = await open();
      const clock = new TestClock();
      const mine = worker(db, clock, { lockMs });
      const rolledBack = new Error('the request failed after queueing its mail');
      await expect(
        db.transaction(async (tx) => {
          const claimed = await queueClaimed(tx, clock, 'never@example.jp');
          // As the callers do: handed only once committed, so never here.
          void claimed;
          throw rolledBack;
        }),
      ).rejects.toBe(rolledBack);
      clock.advance(lockMs + 1);
      await mine.queue.flush();
      expect(mine.sender.started).toEqual([]);
      expect(await db.select().from(mailQueue)).toEqual([]);
    });

    it('is retried by any worker after its backoff when the handed send is refused', async () => {
      const { db } = await open();
      const clock = new TestClock();
      const mine = worker(db, clock, { lockMs, retryFirstMs: 1_000 });
      const other = worker(db, clock, { lockMs });
      mine.queue.handOff(await queueClaimed(db, clock, 'refused@example.jp'));
      await vi.waitFor(() => expect(mine.sender.started).toHaveLength(1));
      mine.sender.end('refused@example.jp', Object.assign(new Error('try again later'), { responseCode: 451 }));
      await mine.queue.flush();
      expect(await db.select().from(mailQueue)).toMatchObject([{ attempts: 1, lockedUntil: null, lastError: '451' }]);
      clock.advance(1_000);
      await sentBy(db, other, 'refused@example.jp');
    });

    it('is given back for any worker at once when handed to a worker that is closing', async () => {
      const { db } = await open();
      const clock = new TestClock();
      const closing = worker(db, clock, { lockMs, concurrency: 1 });
      closing.queue.handOff(await queueClaimed(db, clock, 'first@example.jp'));
      await vi.waitFor(() => expect(closing.sender.started).toHaveLength(1));
      // Waits for a slot, then the worker closes: the first send ends, the second is given back.
      closing.queue.handOff(await queueClaimed(db, clock, 'second@example.jp'));
      const stopped = closing.queue.stop();
      closing.sender.end('first@example.jp');
      await stopped;
      expect(closing.sender.started).toEqual(['first@example.jp']);
      expect(await db.select().from(mailQueue)).toMatchObject([{ lockedUntil: null }]);
      const other = worker(db, clock, { lockMs });
      other.queue.wake();
      await vi.waitFor(() => expect(other.sender.started).toEqual(['second@example.jp']));
    });
  });
});

describe.each(backends)('a process that did not queue the mail ($name)', (backend) => {
  let server: TestServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('sends it at once, woken by the database, not at its next poll', async () => {
    server = await startTestServer(backend, { config: { mailQueue: { ...loadConfig({}).mailQueue, pollMs: HOUR } } });
    const { app, clock } = server;
    // Written as another process writes it: no wake-up in this one.
    await enqueueMail(app.db, 'verification', message('elsewhere@example.jp'), clock.now(), new Date(clock.now().getTime() + 10 * MINUTE));
    await vi.waitFor(async () => expect((await app.mail.list?.())?.map((mail) => mail.to)).toEqual(['elsewhere@example.jp']), { timeout: 5_000 });
  });
});
