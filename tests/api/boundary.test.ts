import { storedAnswersOf } from '../../src/server/forms/answers.js';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import { applications } from '../../src/server/db/schema.js';
import { httpMessages } from '../../src/server/http-messages.js';
import { maskPersonalData } from '../../src/server/logging.js';
import pages from '../../src/server/plugins/pages.js';
import { headersOf, signedIn, validBodies, type Signed } from './application-fixtures.js';
import { applicant, backends, captureLog, codeFromOutbox, hostOf, PRODUCTION, register, startTestServer, type TestServer, verify } from './helpers.js';

/**
 * The request boundary (issue 10), class by class as a hostile client found them: text with
 * control characters or lone surrogates, integers beyond their column, a query parameter
 * given twice, and the log of a request that makes the database fail. Each must be a 4xx with
 * a Japanese message (or be accepted and stored clean), and no value may reach the log.
 */

type Json = Record<string, unknown>;

describe.each(backends)('request boundary ($name)', (backend) => {
  let server: TestServer;
  const { stream: logStream, lines } = captureLog();
  let addressCode = '';

  beforeAll(async () => {
    server = await startTestServer(backend, { config: { logLevel: 'info' }, logStream });
  });
  afterAll(async () => {
    await server?.close();
  });

  const get = (who: Signed, url: string) => server.app.inject({ method: 'GET', url, headers: headersOf(server, who) });
  const post = (who: Signed, url: string, payload: Json) =>
    server.app.inject({ method: 'POST', url, headers: headersOf(server, who), payload });
  const stored = async (who: Signed) => (await storedAnswersOf(server.app.db, server.app.forms, who.id))?.application;
  const personalOf = async (who: Signed, overrides: Json = {}) => {
    if (!addressCode) {
      const answer = await get(who, '/api/addresses?postalNumber=8100001');
      addressCode = answer.json<{ addressList: { addressCode: string }[] }>().addressList[0]?.addressCode ?? '';
    }
    return { ...validBodies.personal(addressCode), ...overrides };
  };

  it('strips NUL and other control characters before validation, and stores clean text', async () => {
    const who = applicant();
    await register(server, who);
    const code = await codeFromOutbox(server.outbox, who.mailAddress);
    const verified = await verify(server, who, code, { channel: 'web\u0000ad\u0007' });
    expect(verified.statusCode).toBe(200);
    const [row] = await server.app.db.select().from(applications).where(eq(applications.mailAddress, who.mailAddress));
    expect(row?.channel).toBe('webad');

    const signed = await signedIn(server);
    const personal = await post(signed, '/api/applications/personal', await personalOf(signed, { lastName: '山\u0000田', subAddress: '2-13\u0000-1' }));
    expect(personal.statusCode).toBe(200);
    expect(await stored(signed)).toMatchObject({ lastName: '山田', subAddress: '2-13-1' });

    const workplace = await post(signed, '/api/applications/workplace', { ...validBodies.workplace(), workplaceName: 'テスト\u0000商事' });
    expect(workplace.statusCode).toBe(200);
    expect((await stored(signed))?.workplaceName).toBe('テスト商事');

    const furigana = await get(signed, `/api/furigana?kanji=${encodeURIComponent('山\u0000田')}`);
    expect(furigana.statusCode).toBe(200);
    expect(furigana.json()).toEqual({ kana: 'ﾔﾏﾀﾞ' });
  });

  it('refuses a field made only of control characters with its own message', async () => {
    const who = await signedIn(server);
    const response = await post(who, '/api/applications/personal', await personalOf(who, { lastName: '\u0000\u0001' }));
    expect(response.statusCode).toBe(400);
    expect(response.json<{ errors: { field: string; message: string }[] }>().errors).toContainEqual({ field: 'lastName', message: messages.required });
  });

  it('removes lone surrogates, also where the text is widened to full width', async () => {
    const who = await signedIn(server);
    const response = await post(who, '/api/applications/workplace', { ...validBodies.workplace(), workplaceName: 'a\udc00b\ud800' });
    expect(response.statusCode).toBe(200);
    const name = (await stored(who))?.workplaceName ?? '';
    expect(name).toBe('ａｂ');
    expect(name).not.toMatch(/[\ud800-\udfff]/);
  });

  it.each([2147483648, 9007199254740992, 1e308, -2147483649])('refuses workplaceId %d beyond the column range with 400 and stores nothing', async (workplaceId) => {
    const who = await signedIn(server);
    const before = await stored(who);
    const response = await post(who, '/api/applications/workplace', { ...validBodies.workplace(), workplaceId });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toBe(messages.badRequest);
    expect(await stored(who)).toEqual(before);
  });

  it('answers a path that normalises to no route (sessions/./decision) with the JSON 404 in Japanese', async () => {
    const response = await server.app.inject({ method: 'POST', url: '/ekyc-simulator/sessions/./decision', headers: { host: hostOf(server, '0177') } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: httpMessages.notFound });
  });

  it.each([
    '/api/addresses?postalNumber=8100001&postalNumber=8600046',
    '/api/furigana?kanji=山田&kanji=田中',
    '/api/workplace?code=F10001&code=F10002',
    '/api/invitation?code=FBK001&code=FBK002',
    '/dev/outbox?to=a@example.com&to=b@example.com',
    '/dev/outbox.json?to=a@example.com&to=b@example.com',
  ])('refuses a query parameter given twice: %s (400)', async (url) => {
    const who = await signedIn(server);
    const response = await get(who, url);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: messages.badRequest });
  });

  it('logs a failing query by its SQLSTATE and constraint, never by the values it carried', async () => {
    const who = await signedIn(server);
    const body = await personalOf(who);
    lines.length = 0;
    // A check the schemas do not know (answered 400) and a column that is gone (our bug, 500).
    await server.app.db.execute(sql.raw(`ALTER TABLE application_forms ADD CONSTRAINT boundary_probe CHECK (answers->>'subAddress' <> '2-13-1') NOT VALID`));
    try {
      const refused = await post(who, '/api/applications/personal', body);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ message: messages.badRequest });
    } finally {
      await server.app.db.execute(sql.raw('ALTER TABLE application_forms DROP CONSTRAINT boundary_probe'));
    }
    await server.app.db.execute(sql.raw('ALTER TABLE application_forms RENAME COLUMN answers TO boundary_probe'));
    try {
      const failed = await post(who, '/api/applications/personal', body);
      expect(failed.statusCode).toBe(500);
      expect(failed.json<{ message: string }>().message).toMatch(/システムエラー/);
    } finally {
      await server.app.db.execute(sql.raw('ALTER TABLE application_forms RENAME COLUMN boundary_probe TO answers'));
    }

    const log = lines.join('');
    expect(log).toContain('"sqlState":"23514"');
    expect(log).toContain('"constraint":"boundary_probe"');
    expect(log).toContain('"sqlState":"42703"');
    for (const value of ['山田', 'ﾔﾏﾀﾞ', '花子', '1990-01-15', '090-1234-5678', '2-13-1', '09012345678', 'params', 'Failed query']) {
      expect(log).not.toContain(value);
    }
  });
});

describe('per-IP limit on code verification', () => {
  it('answers 429 with the Japanese message once one IP has tried RATE_LIMIT_VERIFY_IP_PER_HOUR codes', async () => {
    const server = await startTestServer({ name: 'pglite' }, { config: { rateLimit: { addressPerHour: 5, ipPerHour: 30, verifyIpPerHour: 5 } } });
    try {
      const ip = '10.9.8.7';
      for (let i = 0; i < 5; i += 1) {
        const wrong = await verify(server, applicant(), '000000', {}, ip);
        expect(wrong.statusCode).toBe(400);
      }
      const limited = await verify(server, applicant(), '000000', {}, ip);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ message: messages.tooManyRequests });
      // Another client is not held back.
      expect((await verify(server, applicant(), '000000', {}, '10.9.8.8')).statusCode).toBe(400);
    } finally {
      await server.close();
    }
  });
});

describe('production trusts only its own hosts', () => {
  it('serves a bank only on its DOMAIN: 0587.attacker.example and localhost get no bank', async () => {
    const server = await startTestServer({ name: 'pglite' }, { config: PRODUCTION });
    try {
      const registerOn = (host: string) =>
        server.app.inject({
          method: 'POST',
          url: '/api/verification-codes/register',
          headers: { host },
          payload: { bankCode: '0587', mailAddress: 'someone@example.com', applicationType: 'GENERAL' },
        });
      for (const host of ['0587.attacker.example', '0587.localhost', 'localhost', '127.0.0.1', `${hostOf(server, '0587')}.attacker.example`]) {
        const response = await registerOn(host);
        expect(response.statusCode, host).toBe(404);
        expect(response.json<{ message: string }>().message).toMatch(/受け付けておりません/);
      }
      expect((await registerOn(hostOf(server, '0587'))).statusCode).toBe(200);
      expect((await registerOn(hostOf(server, '0587').toUpperCase())).statusCode).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('answers a page request on another host with the plain "page not found" page', async () => {
    const distDir = await mkdtemp(path.join(tmpdir(), 'kouza-dist-'));
    await mkdir(path.join(distDir, 'assets'));
    await writeFile(path.join(distDir, 'index.html'), '<!doctype html><html><head><title>口座開設のお申込み</title><!--client-settings--></head><body></body></html>');
    const server = await startTestServer(
      { name: 'pglite' },
      {
        config: PRODUCTION,
        pages: async (instance) =>
          instance.register(pages, { distDir, flows: [], analyticsMeasurementId: null, ekycPollIntervalMs: null, session: { idleMs: 1_800_000, warningMs: 120_000 }, production: true }),
      },
    );
    try {
      const open = (host: string) => server.app.inject({ method: 'GET', url: '/term', headers: { host } });
      const attacker = await open('0587.attacker.example');
      expect(attacker.statusCode).toBe(404);
      expect(attacker.body).toContain('ページが見つかりません');
      expect(attacker.body).not.toContain('熊本銀行');
      // Anything else that no route claims: the JSON 404, in Japanese.
      const post = await server.app.inject({ method: 'POST', url: '/nowhere', headers: { host: hostOf(server, '0587') } });
      expect(post.statusCode).toBe(404);
      expect(post.json()).toEqual({ message: httpMessages.notFound });
      const own = await open(hostOf(server, '0587'));
      expect(own.statusCode).toBe(200);
      expect(own.body).toContain('熊本銀行');
    } finally {
      await server.close();
      await rm(distDir, { recursive: true, force: true });
    }
  });
});

describe('log masking of our own errors', () => {
  it('masks mail addresses and digit runs a library quoted, and keeps stack frames readable', () => {
    const smtp = "Can't send mail - all recipients were rejected: 550 5.1.1 <hanako.yamada+kouza@example.co.jp>: Recipient address rejected";
    expect(maskPersonalData(smtp)).toBe("Can't send mail - all recipients were rejected: 550 5.1.1 <[mail]>: Recipient address rejected");
    expect(maskPersonalData('bad phone 090-1234-5678, postal 8100001, account 1234567')).toBe('bad phone [digits], postal [digits], account [digits]');
    const frame = '    at Object.<anonymous> (/work/main/node_modules/@fastify/multipart/index.js:123:45)';
    expect(maskPersonalData(frame)).toBe(frame);
  });
});
