import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import { SESSION_ACTIVITY_AGE_HEADER } from '../../src/domain/session-activity.js';
import { hashAuthToken } from '../../src/server/crypto.js';
import { authTokens } from '../../src/server/db/schema.js';
import { activityRecordedEveryMs, LOOKUP_TRUST_MS } from '../../src/server/plugins/auth.js';
import { applicant, backends, HOUR, hostOf, MINUTE, signIn, startTestServer, testServerFor, type TestServer } from './helpers.js';

describe.each(backends)('authentication token ($name)', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => server.clock.reset());

  const getApplication = (authorization?: string, code = '0177') =>
    server.app.inject({
      method: 'GET',
      url: '/api/applications',
      headers: { host: hostOf(server, code), ...(authorization ? { authorization } : {}) },
    });

  const expectUnauthorized = (response: Awaited<ReturnType<typeof getApplication>>) => {
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: messages.unauthorized });
  };

  it('answers 401 without a token or with a malformed or unknown one', async () => {
    expectUnauthorized(await getApplication());
    expectUnauthorized(await getApplication('Bearer'));
    expectUnauthorized(await getApplication('Basic dXNlcjpwYXNz'));
    expectUnauthorized(await getApplication(`Bearer ${'A'.repeat(43)}`));
    const token = await signIn(server);
    expectUnauthorized(await getApplication(`Bearer ${token}x`));
    expectUnauthorized(await getApplication(token));
  });

  it('keeps a session alive while used and ends it after 30 idle minutes', async () => {
    const token = await signIn(server);
    server.clock.advance(29 * MINUTE);
    expect((await getApplication(`Bearer ${token}`)).statusCode).toBe(200);
    server.clock.advance(29 * MINUTE);
    expect((await getApplication(`Bearer ${token}`)).statusCode).toBe(200);
    server.clock.advance(31 * MINUTE);
    expectUnauthorized(await getApplication(`Bearer ${token}`));
  });

  it('extends a session on 「延長する」 (POST /api/session/extend), as often as asked, but never past its 12 hours', async () => {
    const token = await signIn(server);
    const extend = (authorization: string) =>
      server.app.inject({ method: 'POST', url: '/api/session/extend', headers: { host: hostOf(server, '0177'), authorization } });
    for (let times = 0; times < 12; times += 1) {
      server.clock.advance(29 * MINUTE);
      expect((await extend(`Bearer ${token}`)).statusCode).toBe(204);
    }
    expect((await getApplication(`Bearer ${token}`)).statusCode).toBe(200);
    server.clock.advance(31 * MINUTE);
    expectUnauthorized(await extend(`Bearer ${token}`));
    expectUnauthorized(await getApplication(`Bearer ${token}`));
    expectUnauthorized(await extend(`Bearer ${'A'.repeat(43)}`));
  });

  it('ends every session 12 hours after verification, however active', async () => {
    const token = await signIn(server);
    for (let elapsed = 0; elapsed < 12 * HOUR - 20 * MINUTE; elapsed += 20 * MINUTE) {
      server.clock.advance(20 * MINUTE);
      expect((await getApplication(`Bearer ${token}`)).statusCode).toBe(200);
    }
    server.clock.advance(20 * MINUTE);
    expectUnauthorized(await getApplication(`Bearer ${token}`));
  });

  it("refuses a token on another bank's host", async () => {
    const token = await signIn(server, applicant('0181'));
    expect((await getApplication(`Bearer ${token}`, '0181')).statusCode).toBe(200);
    expectUnauthorized(await getApplication(`Bearer ${token}`, '0177'));
  });
});

describe.each(backends)('the lookups of reference data ($name)', (backend) => {
  const server = testServerFor(backend);

  const get = (url: string, token: string, code = '0177') =>
    server.app.inject({ method: 'GET', url, headers: { host: hostOf(server, code), authorization: `Bearer ${token}` } });
  const branches = (token: string, code = '0177') => get('/api/branch', token, code);
  /** Ends the session in the database behind this process's back (another process signed it out, say). */
  const endSession = (token: string) => server.app.db.delete(authTokens).where(eq(authTokens.tokenHash, hashAuthToken(token)));

  it('answer a session created or checked moments ago without asking the database, for LOOKUP_TRUST_MS only', async () => {
    const token = await signIn(server);
    // Verify created it in this process, its activity recorded then: trusted at once.
    const created = await branches(token);
    expect(created.statusCode).toBe(200);
    expect(created.headers[SESSION_ACTIVITY_AGE_HEADER]).toBe('0');
    // A process that never saw it (nothing remembered): the whole check, which records the activity now.
    server.app.recentSessions.clear();
    const first = await branches(token);
    expect(first.statusCode).toBe(200);
    expect(first.headers[SESSION_ACTIVITY_AGE_HEADER]).toBeUndefined();
    await endSession(token);
    server.clock.advance(LOOKUP_TRUST_MS - 1_000);
    const trusted = await get('/api/furigana?kanji=山田', token);
    expect(trusted.statusCode).toBe(200);
    // The page counts the session's end from when the activity was recorded, not from now.
    expect(trusted.headers[SESSION_ACTIVITY_AGE_HEADER]).toBe(String(LOOKUP_TRUST_MS - 1_000));
    // Anything but a lookup asks the database at once.
    expect((await get('/api/applications', token)).statusCode).toBe(401);
    // …and a session found ended is forgotten here too.
    expect((await branches(token)).statusCode).toBe(401);
  });

  it('check the session again once LOOKUP_TRUST_MS has passed', async () => {
    const token = await signIn(server);
    expect((await branches(token)).statusCode).toBe(200);
    await endSession(token);
    server.clock.advance(LOOKUP_TRUST_MS);
    expect((await branches(token)).statusCode).toBe(401);
  });

  it("trust no token on another bank's host, nor one this process never accepted", async () => {
    const token = await signIn(server, applicant('0181'));
    expect((await branches(token, '0181')).statusCode).toBe(200);
    expect((await branches(token, '0177')).statusCode).toBe(401);
    expect((await branches('A'.repeat(43))).statusCode).toBe(401);
  });
});

describe.each(backends)('a shorter idle time by configuration ($name)', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { config: { session: { idleMs: 5 * MINUTE, warningMs: MINUTE } } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('ends a session after SESSION_IDLE_MS without a request', async () => {
    const token = await signIn(server);
    const get = () => server.app.inject({ method: 'GET', url: '/api/applications', headers: { host: hostOf(server, '0177'), authorization: `Bearer ${token}` } });
    server.clock.advance(4 * MINUTE);
    expect((await get()).statusCode).toBe(200);
    server.clock.advance(5 * MINUTE + 1);
    expect((await get()).statusCode).toBe(401);
  });
});

describe.each(backends)('the recorded activity ($name)', (backend) => {
  const idleMs = 5 * MINUTE;
  const server = testServerFor(backend, { config: { session: { idleMs, warningMs: 4 * MINUTE + 50_000 } } });
  const every = activityRecordedEveryMs(idleMs);

  const call = (method: 'GET' | 'POST', url: string, token: string) =>
    server.app.inject({ method, url, headers: { host: hostOf(server, '0177'), authorization: `Bearer ${token}` } });
  const recordedAt = async (token: string) =>
    (await server.app.db.select({ at: authTokens.lastSeenAt }).from(authTokens).where(eq(authTokens.tokenHash, hashAuthToken(token))))[0]?.at.getTime();

  it('is written again only once it is activityRecordedEveryMs old, and the page is told its age', async () => {
    const token = await signIn(server);
    const signedInAt = await recordedAt(token);
    server.clock.advance(every - 1);
    const soon = await call('GET', '/api/applications', token);
    expect(soon.statusCode).toBe(200);
    expect(soon.headers[SESSION_ACTIVITY_AGE_HEADER]).toBe(String(every - 1));
    expect(await recordedAt(token)).toBe(signedInAt);
    server.clock.advance(1);
    const later = await call('GET', '/api/applications', token);
    expect(later.headers[SESSION_ACTIVITY_AGE_HEADER]).toBeUndefined();
    expect(await recordedAt(token)).toBe(server.clock.now().getTime());
  });

  it('ends the session SESSION_IDLE_MS after the recorded activity, which the page was told', async () => {
    const token = await signIn(server);
    server.clock.advance(every - 1);
    expect((await call('GET', '/api/applications', token)).statusCode).toBe(200);
    // The last request was idleMs - every + 1 ago; the recorded activity, idleMs + 1 ago.
    server.clock.advance(idleMs - every + 2);
    expect((await call('GET', '/api/applications', token)).statusCode).toBe(401);
  });

  it('is recorded at once when the applicant extends the session, however recent', async () => {
    const token = await signIn(server);
    // A warning this long comes 10 s after the recorded activity, sooner than it is written again.
    server.clock.advance(10_000);
    const extended = await call('POST', '/api/session/extend', token);
    expect(extended.statusCode).toBe(204);
    expect(extended.headers[SESSION_ACTIVITY_AGE_HEADER]).toBeUndefined();
    expect(await recordedAt(token)).toBe(server.clock.now().getTime());
    server.clock.advance(idleMs - 1);
    expect((await call('GET', '/api/applications', token)).statusCode).toBe(200);
  });
});

describe.each(backends)('lookups under an idle time of a minute ($name)', (backend) => {
  const server = testServerFor(backend, { config: { session: { idleMs: MINUTE, warningMs: 10_000 } } });

  it('trust a session a quarter of SESSION_IDLE_MS at most', async () => {
    const token = await signIn(server);
    const branches = () => server.app.inject({ method: 'GET', url: '/api/branch', headers: { host: hostOf(server, '0177'), authorization: `Bearer ${token}` } });
    expect((await branches()).statusCode).toBe(200);
    await server.app.db.delete(authTokens).where(eq(authTokens.tokenHash, hashAuthToken(token)));
    server.clock.advance(14_000);
    expect((await branches()).statusCode).toBe(200);
    server.clock.advance(1_000);
    expect((await branches()).statusCode).toBe(401);
  });
});
