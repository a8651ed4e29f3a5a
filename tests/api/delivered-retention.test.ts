import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BankConfig } from '../../src/domain/bank/types.js';
import type { BankRegistry } from '../../src/server/banks/registry.js';
import { loadConfig } from '../../src/server/config.js';
import {
  applicationForms,
  applicationPins,
  applications,
  authTokens,
  bankDeliveries,
  documents,
  ekycSessions,
  ekycSimulatorSessions,
  mailQueue,
  verificationCodes,
  verificationRecords,
} from '../../src/server/db/schema.js';
import { listDeliveries } from '../../src/server/delivery/rows.js';
import { runOperatorCommand } from '../../src/server/operator/commands.js';
import { retentionRound } from '../../src/server/plugins/retention.js';
import { DAY_MS } from '../../src/server/resume/applications.js';
import { complete, verifiedApplication, type Signed } from './application-fixtures.js';
import { backends, codeFromOutbox, hostOf, register, startTestServer, type TestServer } from './helpers.js';

/**
 * Issue 15, ADR 0036: once the bank has confirmed receipt and the bank's grace period
 * (deliveredApplicationRetentionDays, 7 by default) has passed, the hourly retention job leaves
 * only the stub of a completed application and its verification records. An application whose
 * hand-off keeps failing keeps everything, so does one within the grace period, and a second
 * run changes nothing. Deliveries go to the server's development receiver (0177, 0181) and, for
 * 0587, to a closed port, so that bank's hand-offs fail.
 */

/** Nothing listens here: every hand-off to it is refused. */
const CLOSED_ENDPOINT = 'http://127.0.0.1:3459/closed';

function with0587Failing(registry: BankRegistry): BankRegistry {
  const failing = (bank: BankConfig | undefined) => (bank?.code === '0587' ? { ...bank, DELIVERY_ENDPOINT: CLOSED_ENDPOINT } : bank);
  return {
    all: () => registry.all().map((bank) => failing(bank) ?? bank),
    get: (code) => failing(registry.get(code)),
    resolveHost: (host, defaultCode, exactOnly) => failing(registry.resolveHost(host, defaultCode, exactOnly)),
    imagePath: (bank, kind) => registry.imagePath(bank, kind),
  };
}

/** The tables that hold an application's data, each with its application column. */
const perApplication: [string, PgTable, PgColumn][] = [
  ['application_forms', applicationForms, applicationForms.applicationId],
  ['documents', documents, documents.applicationId],
  ['application_pins', applicationPins, applicationPins.applicationId],
  ['auth_tokens', authTokens, authTokens.applicationId],
  ['ekyc_sessions', ekycSessions, ekycSessions.applicationId],
  ['mail_queue', mailQueue, mailQueue.applicationId],
  ['verification_records', verificationRecords, verificationRecords.applicationId],
];

describe.each(backends)('what a delivered application keeps ($name)', (backend) => {
  let server: TestServer;
  /** Each application and the address it was made with (the stub no longer has it). */
  const made: { who: Signed; mailAddress: string }[] = [];

  beforeAll(async () => {
    const delivery = { ...loadConfig({}).delivery, retryFirstMs: 100, retryMaxMs: 400, pollMs: 50 };
    server = await startTestServer(backend, { config: { delivery }, banks: with0587Failing });
    await server.app.listen({ port: backend.name === 'pglite' ? 3451 : 3452, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function until(done: () => Promise<boolean>): Promise<void> {
    for (let tries = 0; !(await done()); tries += 1) {
      if (tries > 400) throw new Error('timed out');
      server.clock.current = new Date();
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async function counts(applicationId: string): Promise<Record<string, number>> {
    const entries = await Promise.all(
      perApplication.map(async ([name, table, column]) => {
        const [row] = await server.app.db.select({ n: sql<number>`count(*)::int` }).from(table).where(eq(column, applicationId));
        return [name, Number(row?.n ?? 0)] as const;
      }),
    );
    const simulator = await server.app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(ekycSimulatorSessions)
      .where(sql`${ekycSimulatorSessions.sessionId} in (select ${ekycSessions.providerSessionId} from ${ekycSessions} where ${ekycSessions.applicationId} = ${applicationId})`);
    return { ...Object.fromEntries(entries), ekyc_simulator_sessions: Number(simulator[0]?.n ?? 0) };
  }

  async function row(applicationId: string) {
    const [found] = await server.app.db.select().from(applications).where(eq(applications.id, applicationId));
    const [delivery] = await server.app.db.select().from(bankDeliveries).where(eq(bankDeliveries.applicationId, applicationId));
    return { application: found, delivery };
  }

  /** The applicant comes back with a fresh code for the address they applied with. */
  async function resume(who: Signed, mailAddress: string) {
    const returning = { bankCode: who.bankCode, applicationType: who.applicationType, mailAddress };
    await register(server, returning);
    return server.app.inject({
      method: 'POST',
      url: '/api/verification-codes/resume',
      headers: { host: hostOf(server, who.bankCode) },
      payload: { ...returning, verificationCode: await codeFromOutbox(server.outbox, mailAddress) },
    });
  }

  const operator = (...argv: string[]) => runOperatorCommand(argv, { db: server.app.db, isBank: () => true, servedFlows: () => server.app.flowVersions.current() });

  it('sets up: two applications delivered (one a child with documents), one whose hand-off keeps failing', async () => {
    for (const options of [{ bankCode: '0177', applicationType: 'CHILD' as const }, { bankCode: '0181' }, { bankCode: '0587' }]) {
      const who = await verifiedApplication(server, options);
      const [stored] = await server.app.db.select({ mailAddress: applications.mailAddress }).from(applications).where(eq(applications.id, who.id));
      expect((await complete(server, who)).statusCode).toBe(200);
      // What a landing page may have kept, and a mail about it still waiting for the SMTP server.
      await server.app.db.update(applications).set({ channel: 'line', deviceId: randomUUID() }).where(eq(applications.id, who.id));
      const later = new Date(server.clock.now().getTime() + DAY_MS);
      await server.app.db.insert(mailQueue).values({ id: randomUUID(), kind: 'resume', message: { from: { name: 'x', address: 'x@example.com' }, to: stored?.mailAddress ?? '', subject: 's', text: 't' }, nextAttemptAt: later, discardAfter: new Date(later.getTime() + DAY_MS), createdAt: server.clock.now(), applicationId: who.id });
      made.push({ who, mailAddress: stored?.mailAddress ?? '' });
    }
    await until(async () => {
      const rows = await listDeliveries(server.app.db);
      const state = (id: string) => rows.find((delivery) => delivery.applicationId === id)?.state;
      return state(made[0]!.who.id) === 'delivered' && state(made[1]!.who.id) === 'delivered' && state(made[2]!.who.id) === 'failed';
    });
    // The completion mails sent, and their rows deleted (a worker gathers sent rows a moment
    // first): the counts below stay as they are until the retention round.
    await server.app.mailQueue.flush();
    for (const { who } of made) {
      const held = await counts(who.id);
      expect(held).toMatchObject({ application_pins: 1, ekyc_sessions: 1, ekyc_simulator_sessions: 1 });
      // Ours, and the completion mail when the mail worker has not sent it yet.
      expect(held.mail_queue).toBeGreaterThanOrEqual(1);
      expect(held.application_forms).toBeGreaterThanOrEqual(4);
      expect(held.verification_records).toBeGreaterThanOrEqual(1);
    }
    expect((await counts(made[0]!.who.id)).documents).toBe(2);
  });

  it('keeps everything within the grace period', async () => {
    const before = await Promise.all(made.map(({ who }) => counts(who.id)));
    server.clock.current = new Date(Date.now() + 6 * DAY_MS);
    expect((await retentionRound(server.app)).minimized).toBe(0);
    expect(await Promise.all(made.map(({ who }) => counts(who.id)))).toEqual(before);
    expect((await row(made[0]!.who.id)).application?.mailAddress).toBe(made[0]!.mailAddress);
  });

  it('past it, leaves the delivered ones only their stub and verification records; the failing one keeps everything', async () => {
    const records = await Promise.all(made.map(async ({ who }) => (await counts(who.id)).verification_records));
    const failing = await counts(made[2]!.who.id);
    server.clock.current = new Date(Date.now() + 8 * DAY_MS);
    // Two rounds at once (on PostgreSQL over two pooled connections, as two processes would):
    // each application is reduced by exactly one of them.
    const rounds = await Promise.all([retentionRound(server.app), retentionRound(server.app)]);
    expect(rounds[0].minimized + rounds[1].minimized).toBe(2);

    for (const [index, { who, mailAddress }] of made.slice(0, 2).entries()) {
      const held = await counts(who.id);
      expect(held).toEqual({
        application_forms: 0,
        documents: 0,
        application_pins: 0,
        auth_tokens: 0,
        ekyc_sessions: 0,
        mail_queue: 0,
        verification_records: records[index],
        ekyc_simulator_sessions: 0,
      });
      const { application, delivery } = await row(who.id);
      expect(application).toMatchObject({ id: who.id, bankCode: who.bankCode, applicationType: who.applicationType, mailAddress: null, channel: null, deviceId: null, mailHash: server.app.hasher.mail(mailAddress) });
      expect(application?.applicationNumber).toMatch(/^\d{4}-\d{6}-\d{6}$/);
      expect(application?.applicationCompletedAt).toBeInstanceOf(Date);
      expect(delivery?.minimizedAt).toEqual(server.clock.now());
      expect(delivery?.deliveredAt).toBeInstanceOf(Date);
      expect(delivery?.payloadSha256).toMatch(/^[0-9a-f]{64}$/);
      // Nothing in the stub's row is the person's: no field holds the address, in any case.
      expect(JSON.stringify({ application, delivery }).toLowerCase()).not.toContain(mailAddress.toLowerCase());
    }
    expect(await counts(made[2]!.who.id)).toEqual(failing);
    expect((await row(made[2]!.who.id)).application?.mailAddress).toBe(made[2]!.mailAddress);
  });

  it('changes nothing when run again', async () => {
    const before = await Promise.all(made.map(async ({ who }) => ({ held: await counts(who.id), ...(await row(who.id)) })));
    server.clock.current = new Date(Date.now() + 9 * DAY_MS);
    expect((await retentionRound(server.app)).minimized).toBe(0);
    const after = await Promise.all(made.map(async ({ who }) => ({ held: await counts(who.id), ...(await row(who.id)) })));
    // The failing delivery's worker may have tried again meanwhile: compare the stubs only.
    expect(after.slice(0, 2)).toEqual(before.slice(0, 2));
  });

  it('still answers 409 to a resume of a reduced application, by the address it was made with', async () => {
    const { who, mailAddress } = made[0]!;
    const answer = await resume(who, mailAddress);
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toEqual({ message: 'このメールアドレスでのお申込みは受付が完了しているため、再開できません。' });
  });

  it('refuses to re-send a reduced application, and says why; the list says when its data went', async () => {
    const { who } = made[1]!;
    const { delivery } = await row(who.id);
    const resent = await operator('deliveries', 'resend', '--application', who.id);
    expect(resent.exitCode).toBe(1);
    expect(resent.lines.join('\n')).toMatch(new RegExp(`^Application ${who.id} cannot be sent again: its data was removed on 20.*after the bank confirmed receipt on 20.*docs/adr/0036.*SHA-256 ${delivery?.payloadSha256}`));
    expect((await row(who.id)).delivery?.nextAttemptAt).toBeNull();
    const listed = await operator('deliveries', 'list');
    expect(listed.lines.find((line) => line.startsWith(who.id))).toMatch(/ delivered attempts 1 delivered 20\S+ data removed 20\S+$/);
  });

  it('deletes the stubs with the bank\'s record retention, never the records; spent codes went a day after they expired', async () => {
    const records = await Promise.all(made.map(async ({ who }) => (await counts(who.id)).verification_records));
    expect((await server.app.db.select().from(verificationCodes)).length).toBeGreaterThan(0);
    server.clock.current = new Date(Date.now() + (7 * 365 + 3) * DAY_MS);
    expect((await retentionRound(server.app)).stubs).toBe(2);
    expect(await server.app.db.select().from(verificationCodes)).toEqual([]);
    for (const [index, { who }] of made.entries()) {
      expect((await counts(who.id)).verification_records).toBe(records[index]);
      expect((await row(who.id)).application === undefined).toBe(index < 2);
    }
  });
});
