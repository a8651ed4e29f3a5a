import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applications } from '../../src/server/db/schema.js';
import { messages } from '../../src/domain/messages.js';
import { REVISION_HEADER } from '../../src/domain/revision.js';
import {
  applicant,
  backends,
  codeFromOutbox,
  hostOf,
  MINUTE,
  register,
  startTestServer,
  verify,
  type TestServer,
} from './helpers.js';

/** Any 6-digit code other than the right one. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe.each(backends)('e-mail verification ($name)', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => server.clock.reset());

  it('mails a code that verify exchanges for a token of a new application', async () => {
    const who = applicant('0587', 'CHILD');
    const registered = await register(server, who);
    expect(registered.statusCode).toBe(200);
    expect(registered.json()).toEqual({});

    const [mail] = (await server.outbox.list()).filter((entry) => entry.to === who.mailAddress);
    expect(mail?.from).toEqual({ name: '熊本銀行', address: server.banks.get('0587')?.MAIL_ADDRESS });
    expect(mail?.subject).toBe('【熊本銀行】認証コードのお知らせ');
    expect(mail?.text).toContain('10分間');

    const code = await codeFromOutbox(server.outbox, who.mailAddress);
    const verified = await verify(server, who, code, {
      channel: 'line',
      deviceId: '123e4567-e89b-12d3-a456-426614174000',
    });
    expect(verified.statusCode).toBe(200);
    const { authenticationToken } = verified.json<{ authenticationToken: string }>();
    expect(authenticationToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The landing page's parameters, kept with the new application.
    const [created] = await server.app.db
      .select({ channel: applications.channel, deviceId: applications.deviceId })
      .from(applications)
      .where(eq(applications.mailAddress, who.mailAddress));
    expect(created).toEqual({ channel: 'line', deviceId: '123e4567-e89b-12d3-a456-426614174000' });

    const application = await server.app.inject({
      method: 'GET',
      url: '/api/applications',
      headers: { host: hostOf(server, '0587'), authorization: `Bearer ${authenticationToken}` },
    });
    expect(application.statusCode).toBe(200);
    // A new application: its bank, type and address; no step stored yet (a form's fields come with its document).
    expect(application.json()).toMatchObject({
      application: { bankCode: '0587', applicationType: 'CHILD', mailAddress: who.mailAddress },
      applicationParent: null,
      forms: {},
    });
    expect(application.json<{ application: Record<string, unknown> }>().application).not.toHaveProperty('lastName');
    expect(application.json<{ application: Record<string, unknown> }>().application).not.toHaveProperty('occupationId');
    // Verify answered the same, with the same revision, so the first page need not ask (ADR 0042).
    expect(verified.json<{ applications: unknown }>().applications).toEqual(application.json());
    expect(verified.headers[REVISION_HEADER]).toBe(application.headers[REVISION_HEADER]);
  });

  it('accepts the code with half- and full-width spaces and full-width digits', async () => {
    const who = applicant();
    await register(server, who);
    const code = await codeFromOutbox(server.outbox, who.mailAddress);
    const typed = ` ${code.slice(0, 3)}\u3000${code.slice(3)} `.replace(/[0-9]/g, (d) =>
      String.fromCharCode(d.charCodeAt(0) + 0xfee0),
    );
    const verified = await verify(server, who, typed);
    expect(verified.statusCode).toBe(200);
  });

  it.each([
    ['malformed', 'not-an-address'],
    ['empty', ''],
    ['too long', `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(60)}.example`],
    ['missing', undefined],
  ])('answers 400 with the Japanese mail message for a %s address', async (_label, mailAddress) => {
    const who = { ...applicant(), mailAddress: mailAddress as string };
    const response = await register(server, who);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: messages.mailAddress,
      errors: [{ field: 'mailAddress', message: messages.mailAddress }],
    });
  });

  it('keeps addresses of up to 254 characters', async () => {
    const longest = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.jp`;
    expect(longest).toHaveLength(254);
    expect((await register(server, { ...applicant(), mailAddress: longest })).statusCode).toBe(200);
  });

  it('answers 400 when the bank code is not the host bank, 404 when the host has no bank', async () => {
    const who = applicant('0181');
    const elsewhere = await server.app.inject({
      method: 'POST',
      url: '/api/verification-codes/register',
      headers: { host: hostOf(server, '0177') },
      payload: who,
    });
    expect(elsewhere.statusCode).toBe(400);
    const unknown = await server.app.inject({
      method: 'POST',
      url: '/api/verification-codes/register',
      headers: { host: 'kouza.example.net' },
      payload: who,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toHaveProperty('message');
    expect((await register(server, { ...who, applicationType: 'ADULT' as 'GENERAL' })).statusCode).toBe(400);
    expect((await server.outbox.list()).some((mail) => mail.to === who.mailAddress)).toBe(false);
  });

  it('gives the same answer for a new and a known address', async () => {
    const who = applicant();
    const first = await register(server, who);
    const again = await register(server, who);
    const stranger = await register(server, applicant());
    for (const response of [first, again, stranger]) {
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('{}');
    }
  });

  it('lets a code expire after 10 minutes', async () => {
    const early = applicant();
    await register(server, early);
    // The mail arrives at once; the applicant types the code later.
    const earlyCode = await codeFromOutbox(server.outbox, early.mailAddress);
    server.clock.advance(10 * MINUTE - 1000);
    expect((await verify(server, early, earlyCode)).statusCode).toBe(200);

    server.clock.reset();
    const late = applicant();
    await register(server, late);
    const lateCode = await codeFromOutbox(server.outbox, late.mailAddress);
    server.clock.advance(10 * MINUTE);
    const response = await verify(server, late, lateCode);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: messages.verificationFailed });
  });

  it('kills a code after 5 wrong tries, even if the 6th is right', async () => {
    const who = applicant();
    await register(server, who);
    const code = await codeFromOutbox(server.outbox, who.mailAddress);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await verify(server, who, wrong(code));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: messages.verificationFailed });
    }
    const right = await verify(server, who, code);
    expect(right.statusCode).toBe(400);
    expect(right.json()).toEqual({ message: messages.verificationFailed });
  });

  it('accepts the right code after fewer than 5 wrong tries', async () => {
    const who = applicant();
    await register(server, who);
    const code = await codeFromOutbox(server.outbox, who.mailAddress);
    for (let attempt = 0; attempt < 4; attempt += 1) await verify(server, who, wrong(code));
    expect((await verify(server, who, code)).statusCode).toBe(200);
  });

  it('does not accept a used code again', async () => {
    const who = applicant();
    await register(server, who);
    const code = await codeFromOutbox(server.outbox, who.mailAddress);
    expect((await verify(server, who, code)).statusCode).toBe(200);
    const reused = await verify(server, who, code);
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({ message: messages.verificationFailed });
  });

  it('accepts only one of two simultaneous verifications of one code', async () => {
    const who = applicant();
    await register(server, who);
    const code = await codeFromOutbox(server.outbox, who.mailAddress);
    const answers = await Promise.all([verify(server, who, code), verify(server, who, code)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
  });

  it('replaces an earlier code by a new one', async () => {
    const who = applicant();
    await register(server, who);
    const first = await codeFromOutbox(server.outbox, who.mailAddress);
    await register(server, who);
    const second = await codeFromOutbox(server.outbox, who.mailAddress);
    if (first !== second) expect((await verify(server, who, first)).statusCode).toBe(400);
    expect((await verify(server, who, second)).statusCode).toBe(200);
  });

  it('binds a code to its bank and application type', async () => {
    const who = applicant('0177', 'GENERAL');
    await register(server, who);
    const code = await codeFromOutbox(server.outbox, who.mailAddress);
    expect((await verify(server, { ...who, applicationType: 'CHILD' }, code)).statusCode).toBe(400);
    expect((await verify(server, { ...who, bankCode: '0181' }, code)).statusCode).toBe(400);
    expect((await verify(server, who, code)).statusCode).toBe(200);
  });

  it('answers 400 with the code message for an empty or malformed code', async () => {
    const who = applicant();
    await register(server, who);
    for (const typed of ['', '\u3000 ', '12345', '1234567', 'abcdef']) {
      const response = await verify(server, who, typed);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ message: string }>().message).toBe(messages.verificationFailed);
    }
    // Malformed input is not a guess: the code still works.
    expect((await verify(server, who, await codeFromOutbox(server.outbox, who.mailAddress))).statusCode).toBe(200);
  });

  it('shows the outbox at /dev/outbox (HTML, escaped) and /dev/outbox.json (newest first)', async () => {
    const who = applicant('0181');
    const tricky = { ...who, mailAddress: `o'brien.${who.mailAddress}` };
    await register(server, who);
    await register(server, tricky);
    await server.app.mailQueue.flush();
    const host = hostOf(server, '0181');
    const json = await server.app.inject({ method: 'GET', url: '/dev/outbox.json', headers: { host } });
    expect(json.statusCode).toBe(200);
    expect(json.headers['cache-control']).toBe('no-store');
    const list = json.json<{ to: string; subject: string; sentAt: string }[]>();
    expect(list.slice(0, 2).map((entry) => entry.to)).toEqual([tricky.mailAddress, who.mailAddress]);
    const mine = await server.app.inject({
      method: 'GET',
      url: `/dev/outbox.json?to=${encodeURIComponent(who.mailAddress.toUpperCase())}`,
      headers: { host },
    });
    expect(mine.json<{ to: string }[]>().map((entry) => entry.to)).toEqual([who.mailAddress]);
    const html = await server.app.inject({ method: 'GET', url: '/dev/outbox', headers: { host } });
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.body).toContain('【十八親和銀行】認証コードのお知らせ');
    expect(html.body).toContain(`o&#39;brien.${who.mailAddress}`);
    expect(html.body).not.toContain(`o'brien`);
  });
});
