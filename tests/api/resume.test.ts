import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import { applications, mailQueue } from '../../src/server/db/schema.js';
import { storeDocument, storeDocumentBeforePin } from '../../src/server/forms/documents.js';
import { DAY_MS, purgeExpired } from '../../src/server/resume/applications.js';
import {
  complete,
  confirmedApplication,
  headersOf,
  savedDocuments,
  savedParentDocuments,
  savedPersonal,
  signedIn,
  verifiedApplication,
  type Signed,
} from './application-fixtures.js';
import { applicant, backends, codeFromOutbox, hostOf, register, startTestServer, uniqueIp, type Applicant, type TestServer } from './helpers.js';

/** Any 6-digit code other than the right one. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe.each(backends)('resume an application ($name)', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { config: { rateLimit: { addressPerHour: 1000, ipPerHour: 1000, verifyIpPerHour: 1000 } } });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => server.clock.reset());

  const resume = (who: Applicant, verificationCode: string, ip = uniqueIp()) =>
    server.app.inject({
      method: 'POST',
      url: '/api/verification-codes/resume',
      headers: { host: hostOf(server, who.bankCode) },
      remoteAddress: ip,
      payload: { ...who, verificationCode },
    });

  /** A fresh code for the address, then resume with it. */
  async function resumeWithCode(who: Applicant, ip = uniqueIp()) {
    expect((await register(server, who, ip)).statusCode).toBe(200);
    return resume(who, await codeFromOutbox(server.outbox, who.mailAddress), ip);
  }

  async function addressOf(signed: Signed): Promise<Applicant> {
    const [row] = await server.app.db.select({ mailAddress: applications.mailAddress }).from(applications).where(eq(applications.id, signed.id));
    return { bankCode: signed.bankCode, applicationType: signed.applicationType, mailAddress: row?.mailAddress ?? '' };
  }

  const read = (who: Pick<Signed, 'token' | 'bankCode'>) => server.app.inject({ method: 'GET', url: '/api/applications', headers: headersOf(server, who) });
  const postBranch = (who: Pick<Signed, 'token' | 'bankCode'>, branchCode: string, revision?: string) =>
    server.app.inject({
      method: 'POST',
      url: '/api/applications/branch',
      headers: { ...headersOf(server, who), ...(revision === undefined ? {} : { 'x-application-revision': revision }) },
      payload: { branchCode },
    });

  it('lands on the furthest step with what was entered, keeping the application id', async () => {
    const first = await signedIn(server);
    for (const form of ['personal', 'workplace'] as const) {
      await storeDocument(server.app.db, first.id, form, form === 'personal' ? savedPersonal : (savedDocuments.workplace ?? {}), server.clock.now());
    }
    const who = await addressOf(first);
    server.clock.advance(DAY_MS); // the next day
    const resumed = await resumeWithCode(who);
    expect(resumed.statusCode).toBe(200);
    const { authenticationToken, path } = resumed.json<{ authenticationToken: string; path: string }>();
    expect(path).toBe('/branch');
    const answer = await read({ token: authenticationToken, bankCode: who.bankCode });
    expect(answer.json<{ application: Record<string, unknown> }>().application).toMatchObject({ lastName: savedPersonal.lastName, workplaceName: '株式会社テスト' });
    const rows = await server.app.db.select({ id: applications.id }).from(applications).where(eq(applications.mailAddress, who.mailAddress));
    expect(rows.map((row) => row.id)).toEqual([first.id]);
  });

  it('follows the flow: nothing stored lands on the first step, up to the PIN on the confirmation, a child on the parent page', async () => {
    const fresh = await signedIn(server);
    expect((await resumeWithCode(await addressOf(fresh))).json()).toMatchObject({ path: '/personal' });
    const confirmed = await confirmedApplication(server);
    expect((await resumeWithCode(await addressOf(confirmed))).json()).toMatchObject({ path: '/confirmation' });
    const child = await signedIn(server, '0177', 'CHILD');
    for (const form of ['personal', 'workplace'] as const) {
      await storeDocument(server.app.db, child.id, form, form === 'personal' ? savedPersonal : {}, server.clock.now());
    }
    expect((await resumeWithCode(await addressOf(child))).json()).toMatchObject({ path: '/child/parent' });
    for (const [form, answers] of Object.entries(savedParentDocuments(child))) await storeDocument(server.app.db, child.id, form, answers, server.clock.now());
    expect((await resumeWithCode(await addressOf(child))).json()).toMatchObject({ path: '/child/branch' });
  });

  it('says the same to register for an unknown address, and only the code holder learns that nothing is kept', async () => {
    const known = await addressOf(await signedIn(server));
    const unknown = applicant();
    const [a, b] = [await register(server, known), await register(server, unknown)];
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.body).toBe(b.body);
    // Without the code nothing is told: a wrong code is the verify page's answer.
    const guessed = await resume(unknown, '000000');
    expect(guessed.statusCode).toBe(400);
    expect(guessed.json()).toEqual({ message: messages.verificationFailed });
    const answered = await resume(unknown, await codeFromOutbox(server.outbox, unknown.mailAddress));
    expect(answered.statusCode).toBe(404);
    expect(answered.json()).toEqual({ message: messages.resumeNotFound(30) });
  });

  it('goes on where the identity provider returns when a check is approved or under way, else at its preparation', async () => {
    const approved = await verifiedApplication(server);
    expect((await resumeWithCode(await addressOf(approved))).json()).toMatchObject({ path: '/ekyc-callback' });
    const child = await verifiedApplication(server, { applicationType: 'CHILD' });
    expect((await resumeWithCode(await addressOf(child))).json()).toMatchObject({ path: '/child/ekyc-callback' });
    const rejected = await verifiedApplication(server, { outcome: 'reject' });
    expect((await resumeWithCode(await addressOf(rejected))).json()).toMatchObject({ path: '/ekyc-preparation' });
  });

  it('refuses a completed application', async () => {
    const done = await verifiedApplication(server);
    expect((await complete(server, done)).statusCode).toBe(200);
    const answered = await resumeWithCode(await addressOf(done));
    expect(answered.statusCode).toBe(409);
    expect(answered.json()).toEqual({ message: messages.resumeCompleted });
  });

  it('keeps an application for the retention after its last entry, then refuses and deletes it', async () => {
    const signed = await signedIn(server);
    const who = await addressOf(signed);
    server.clock.advance(29 * DAY_MS);
    expect((await resumeWithCode(who)).statusCode).toBe(200);
    server.clock.advance(DAY_MS + 60_000); // 30 days and a minute after its creation, its last write
    const answered = await resumeWithCode(who);
    expect(answered.statusCode).toBe(404);
    expect(answered.json()).toEqual({ message: messages.resumeNotFound(30) });
    const bank = server.banks.get('0177');
    if (!bank) throw new Error('no bank 0177');
    expect(await purgeExpired(server.app.db, bank, server.clock.now())).toBeGreaterThanOrEqual(1);
    expect(await server.app.db.select().from(applications).where(eq(applications.id, signed.id))).toEqual([]);
  });

  it("does not resume another bank's application", async () => {
    const who = await addressOf(await signedIn(server, '0177'));
    const answered = await resumeWithCode({ ...who, bankCode: '0587' });
    expect(answered.statusCode).toBe(404);
    // …nor a child application from the general landing page.
    expect((await resumeWithCode({ ...who, applicationType: 'CHILD' })).statusCode).toBe(404);
  });

  it('refuses, with 409 and nothing lost, a step from a page older than what another device stored', async () => {
    const first = await signedIn(server);
    const who = await addressOf(first);
    const loaded = (await read(first)).headers['x-application-revision'];
    expect(loaded).toBe('0');
    const second = { token: (await resumeWithCode(who)).json<{ authenticationToken: string }>().authenticationToken, bankCode: who.bankCode };
    const secondRead = (await read(second)).headers['x-application-revision'];
    const newer = await postBranch(second, '001', String(secondRead));
    expect(newer.statusCode).toBe(200);
    expect(newer.headers['x-application-revision']).toBe('1');
    const older = await postBranch(first, '101', String(loaded));
    expect(older.statusCode).toBe(409);
    expect(older.json()).toEqual({ message: messages.revisionConflict });
    expect((await read(first)).json<{ application: Record<string, unknown> }>().application.branchCode).toBe('001');
    // Having read the newer data, the first device writes over it legitimately.
    const reread = String((await read(first)).headers['x-application-revision']);
    expect((await postBranch(first, '101', reread)).statusCode).toBe(200);
    expect((await postBranch(first, '001', 'x1')).statusCode).toBe(400);
  });

  it('mails how long the application is kept when its first step is stored, and on 「あとで再開する」', async () => {
    const signed = await signedIn(server);
    const who = await addressOf(signed);
    const resumeMails = async () => (await server.outbox.list()).filter((mail) => mail.to === who.mailAddress && mail.subject.includes('お申込み内容を保存しています'));
    expect(await resumeMails()).toHaveLength(0);
    expect((await postBranch(signed, '001')).statusCode).toBe(200);
    expect((await postBranch(signed, '101')).statusCode).toBe(200);
    const mails = await resumeMails();
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain('最後にご入力いただいた日から30日間保存します');
    expect(mails[0]?.text).toContain('「申込みを再開する」');
    expect(mails[0]?.text).not.toMatch(/token|Bearer|\d{6}\b/);
    const later = await server.app.inject({ method: 'POST', url: '/api/applications/save-for-later', headers: headersOf(server, signed) });
    expect(later.statusCode).toBe(200);
    expect(later.json()).toEqual({ retentionDays: 30 });
    expect(await resumeMails()).toHaveLength(2);
  });

  it('queues the first step\'s mail only from the statement that stores the first revision', async () => {
    // Two devices whose session checks both saw no step stored: only the first store queues it.
    const signed = await signedIn(server);
    const now = server.clock.now();
    const mail = { message: { from: { name: 'bank', address: 'bank@example.jp' }, to: 'x@example.jp', subject: 's', text: 't' }, discardAfter: new Date(now.getTime() + DAY_MS), lockedUntil: new Date(now.getTime() + 60_000) };
    const first = await storeDocumentBeforePin(server.app.db, signed.id, 'branch', { answers: { branchCode: '001' }, labels: {} }, now, undefined, mail);
    const second = await storeDocumentBeforePin(server.app.db, signed.id, 'branch', { answers: { branchCode: '101' }, labels: {} }, now, undefined, mail);
    expect(first).toMatchObject({ stored: true, revision: 1, firstStepMail: { kind: 'resume', attempts: 1 } });
    expect(second).toEqual({ stored: true, revision: 2, firstStepMail: null });
    const queued = await server.app.db.select({ id: mailQueue.id, lockedUntil: mailQueue.lockedUntil }).from(mailQueue).where(and(eq(mailQueue.applicationId, signed.id), eq(mailQueue.kind, 'resume')));
    expect(queued).toEqual([{ id: first.stored ? first.firstStepMail?.id : '', lockedUntil: mail.lockedUntil }]);
  });

  it('counts resume tries on the verification limits: five wrong codes end the code', async () => {
    const who = await addressOf(await signedIn(server));
    expect((await register(server, who)).statusCode).toBe(200);
    const code = await codeFromOutbox(server.outbox, who.mailAddress);
    for (let i = 0; i < 5; i += 1) expect((await resume(who, wrong(code))).statusCode).toBe(400);
    expect((await resume(who, code)).statusCode).toBe(400);
    // A fresh code works, once: the second resume with it is a wrong code.
    expect((await register(server, who)).statusCode).toBe(200);
    const fresh = await codeFromOutbox(server.outbox, who.mailAddress);
    expect((await resume(who, fresh)).statusCode).toBe(200);
    expect((await resume(who, fresh)).statusCode).toBe(400);
  });
});

describe.each(backends)('resume limits per IP ($name)', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { config: { rateLimit: { addressPerHour: 100, ipPerHour: 100, verifyIpPerHour: 3 } } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('shares the verify limit per client IP: tries at verify and at resume count together', async () => {
    const who = applicant();
    const ip = uniqueIp();
    const statuses: number[] = [];
    for (const route of ['verify', 'resume', 'verify', 'resume']) {
      const answer = await server.app.inject({
        method: 'POST',
        url: `/api/verification-codes/${route}`,
        headers: { host: hostOf(server, who.bankCode) },
        remoteAddress: ip,
        payload: { ...who, verificationCode: '123456' },
      });
      statuses.push(answer.statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
  });
});
