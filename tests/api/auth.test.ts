import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import { applicant, backends, HOUR, hostOf, MINUTE, signIn, startTestServer, type TestServer } from './helpers.js';

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
