import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { EKYC_MAX_ATTEMPTS, EKYC_STATUS } from '../../src/domain/ekyc.js';
import { messages } from '../../src/domain/messages.js';
import { ekycSessions } from '../../src/server/db/schema.js';
import { signedCallback, SIGNATURE_HEADER, signCallback, TIMESTAMP_HEADER } from '../../src/server/ekyc/adapter.js';
import { httpMessages } from '../../src/server/http-messages.js';
import {
  confirmedApplication,
  decide,
  ekycStatus,
  headersOf,
  setPin,
  startEkyc,
  uploadOk,
  type Signed,
} from './application-fixtures.js';
import { backends, hostOf, MINUTE, testServerFor } from './helpers.js';

const SECRET = 'test-callback-secret-0123456789abcdef';

describe.each(backends)('identity check with the simulator ($name)', (backend) => {
  const server = testServerFor(backend, { config: { ekycCallbackSecret: SECRET } });

  async function withPin(bankCode = '0177', applicationType: Signed['applicationType'] = 'GENERAL'): Promise<Signed> {
    const who = await confirmedApplication(server, bankCode, applicationType);
    if (applicationType === 'CHILD') {
      await uploadOk(server, who, 'INDIVIDUAL_NUMBER_CARD');
      await uploadOk(server, who, 'CERTIFICATE_RESIDENCE');
    }
    expect((await setPin(server, who)).statusCode).toBe(200);
    return who;
  }

  async function started(who: Signed): Promise<string> {
    const response = await startEkyc(server, who);
    expect(response.statusCode).toBe(200);
    return response.json<{ url: string }>().url;
  }

  async function ekyc(who: Signed) {
    const response = await server.app.inject({ method: 'GET', url: '/api/ekyc', headers: headersOf(server, who) });
    expect(response.statusCode).toBe(200);
    return response.json<{ status: number; url: string; supplement: boolean }>();
  }

  it('starts a session whose page is the simulator: Japanese, no script, a form posting the outcome', async () => {
    const who = await withPin();
    const url = await started(who);
    expect(url).toMatch(/^\/ekyc-simulator\/sessions\/sim_[A-Za-z0-9_-]{22}$/);
    expect(await ekycStatus(server, who)).toBe(EKYC_STATUS.created);
    expect(await ekyc(who)).toEqual({ status: 1, url, supplement: false });

    const [session] = await server.app.db.select().from(ekycSessions).where(eq(ekycSessions.applicationId, who.id));
    expect(session).toMatchObject({ applicationType: 'GENERAL', provider: 'simulator', status: 1 });
    expect(session?.startedAt).toBeInstanceOf(Date);

    const page = await server.app.inject({ method: 'GET', url, headers: { host: hostOf(server, '0177') } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.body).toContain('lang="ja"');
    expect(page.body).toContain('シミュレーター');
    expect(page.body).toContain(`action="${url}/decision"`);
    for (const outcome of ['approve', 'supplement', 'reject']) expect(page.body).toContain(`value="${outcome}"`);
    expect(page.body).not.toMatch(/<script/i);
  });

  it.each([
    ['approve', EKYC_STATUS.bankerProcessing, false],
    ['supplement', EKYC_STATUS.bankerProcessing, true],
    ['reject', EKYC_STATUS.rejected, false],
    ['error', EKYC_STATUS.failed, false],
  ])('%s over plain HTTP: 303 to /ekyc-callback, then status %i (supplement %s)', async (outcome, status, supplement) => {
    const who = await withPin();
    const url = await started(who);
    const decided = await decide(server, who, url, outcome);
    expect(decided.statusCode).toBe(303);
    expect(decided.headers.location).toBe(`http://${hostOf(server, '0177')}/ekyc-callback`);
    expect(await ekycStatus(server, who)).toBe(status);
    expect(await ekyc(who)).toEqual({ status, url, supplement });
  });

  it('keeps 2 while the provider is still checking, and takes the decision made later', async () => {
    const who = await withPin();
    const url = await started(who);
    expect((await decide(server, who, url, 'pending')).statusCode).toBe(303);
    expect(await ekycStatus(server, who)).toBe(EKYC_STATUS.providerProcessing);
    expect((await decide(server, who, url, 'approve')).statusCode).toBe(303);
    expect(await ekycStatus(server, who)).toBe(EKYC_STATUS.bankerProcessing);
    // Decided: the page says so, a second decision is refused and changes nothing.
    expect((await decide(server, who, url, 'reject')).statusCode).toBe(409);
    expect(await ekycStatus(server, who)).toBe(EKYC_STATUS.bankerProcessing);
    const page = await server.app.inject({ method: 'GET', url, headers: { host: hostOf(server, '0177') } });
    expect(page.body).toContain('送信済み');
  });

  it('sends a child application back to /child/ekyc-callback', async () => {
    const who = await withPin('0587', 'CHILD');
    const url = await started(who);
    const decided = await decide(server, who, url, 'approve');
    expect(decided.headers.location).toBe(`http://${hostOf(server, '0587')}/child/ekyc-callback`);
    expect(await ekycStatus(server, who)).toBe(EKYC_STATUS.bankerProcessing);
  });

  it('refuses to start without the PIN, with another application type, for a second session after approval', async () => {
    const noPin = await confirmedApplication(server);
    expect((await startEkyc(server, noPin)).json()).toEqual({ message: httpMessages.pinNotSet });

    const who = await withPin();
    expect((await startEkyc(server, who, { supplement: false, applicationType: 'CHILD' })).statusCode).toBe(400);
    expect((await startEkyc(server, who, { supplement: true })).statusCode).toBe(400);
    expect((await startEkyc(server, who, { supplement: false, applicationType: 'GENERAL' })).statusCode).toBe(200);
    const url = (await ekyc(who)).url;
    await decide(server, who, url, 'approve');
    const again = await startEkyc(server, who);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: httpMessages.ekycApproved });
  });

  it('refuses a child check before the child documents are uploaded', async () => {
    const who = await confirmedApplication(server, '0181', 'CHILD');
    expect((await setPin(server, who)).statusCode).toBe(200);
    expect((await startEkyc(server, who)).json()).toEqual({ message: httpMessages.documentsMissing });
    await uploadOk(server, who, 'INDIVIDUAL_NUMBER_CARD');
    expect((await startEkyc(server, who)).statusCode).toBe(409);
    await uploadOk(server, who, 'MATERNITY_HANDBOOK');
    expect((await startEkyc(server, who)).statusCode).toBe(200);
  });

  it(`allows a new attempt after a failure, up to ${EKYC_MAX_ATTEMPTS} sessions`, async () => {
    const who = await withPin();
    for (let attempt = 1; attempt <= EKYC_MAX_ATTEMPTS; attempt += 1) {
      await decide(server, who, await started(who), attempt % 2 === 0 ? 'reject' : 'error');
    }
    const refused = await startEkyc(server, who);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: httpMessages.ekycTooManyAttempts });
  });

  it('answers 404 for the status before any session, and for an unknown simulator session', async () => {
    const who = await withPin();
    const status = await server.app.inject({ method: 'POST', url: '/api/ekyc/status', headers: headersOf(server, who) });
    expect(status.statusCode).toBe(404);
    expect((await server.app.inject({ method: 'GET', url: '/api/ekyc', headers: headersOf(server, who) })).statusCode).toBe(404);
    const page = await server.app.inject({ method: 'GET', url: '/ekyc-simulator/sessions/sim_AAAAAAAAAAAAAAAAAAAAAA', headers: { host: hostOf(server, '0177') } });
    expect(page.statusCode).toBe(404);
    expect((await decide(server, who, '/ekyc-simulator/sessions/sim_AAAAAAAAAAAAAAAAAAAAAA', 'approve')).statusCode).toBe(404);
    const url = await started(who);
    expect((await decide(server, who, url, 'maybe')).statusCode).toBe(400);
    expect(await ekycStatus(server, who)).toBe(EKYC_STATUS.created);
  });

  describe('POST /api/ekyc/callback (a provider over HTTP)', () => {
    async function providerSessionId(who: Signed): Promise<string> {
      const [row] = await server.app.db.select().from(ekycSessions).where(eq(ekycSessions.applicationId, who.id));
      if (!row) throw new Error('no session');
      return row.providerSessionId;
    }

    function callback(headers: Record<string, string>, rawBody: Buffer) {
      return server.app.inject({ method: 'POST', url: '/api/ekyc/callback', headers: { host: hostOf(server, '0177'), ...headers }, payload: rawBody });
    }

    it('records a correctly signed callback', async () => {
      const who = await withPin();
      await started(who);
      const sessionId = await providerSessionId(who);
      const signed = signedCallback(SECRET, { sessionId, state: 'processing', supplement: false }, server.clock.now());
      const response = await callback(signed.headers, signed.rawBody);
      expect(response.statusCode).toBe(200);
      expect(await ekycStatus(server, who)).toBe(EKYC_STATUS.providerProcessing);
      const approved = signedCallback(SECRET, { sessionId, state: 'approved', supplement: true }, server.clock.now());
      expect((await callback(approved.headers, approved.rawBody)).statusCode).toBe(200);
      expect(await ekycStatus(server, who)).toBe(EKYC_STATUS.bankerProcessing);
      // A replay of an earlier state changes nothing.
      expect((await callback(signed.headers, signed.rawBody)).statusCode).toBe(200);
      expect(await ekyc(who)).toMatchObject({ status: 4, supplement: true });
      // The poll's answer carries the flag too, so the page need not ask GET /api/ekyc.
      const polled = await server.app.inject({ method: 'POST', url: '/api/ekyc/status', headers: headersOf(server, who) });
      expect(polled.json()).toEqual({ status: 4, supplement: true });
    });

    it('refuses a forged signature, another secret, a changed body and a stale timestamp (401)', async () => {
      const who = await withPin();
      await started(who);
      const sessionId = await providerSessionId(who);
      const now = server.clock.now();
      const genuine = signedCallback(SECRET, { sessionId, state: 'approved', supplement: false }, now);
      const forged = [
        { ...genuine.headers, [SIGNATURE_HEADER]: 'f'.repeat(64) },
        { ...genuine.headers, [SIGNATURE_HEADER]: '' },
        signedCallback('another-secret-entirely-0123456789', { sessionId, state: 'approved', supplement: false }, now).headers,
      ];
      for (const headers of forged) {
        const response = await callback(headers, genuine.rawBody);
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ message: httpMessages.ekycCallbackRefused });
      }
      const changed = Buffer.from(genuine.rawBody.toString().replace('"approved"', '"rejected"'));
      expect((await callback(genuine.headers, changed)).statusCode).toBe(401);
      // Signed correctly, but ten minutes old (the tolerance is five).
      const stale = signedCallback(SECRET, { sessionId, state: 'approved', supplement: false }, new Date(now.getTime() - 10 * MINUTE));
      expect((await callback(stale.headers, stale.rawBody)).statusCode).toBe(401);
      // A new time on an old signature does not verify either.
      const retimed = { ...stale.headers, [TIMESTAMP_HEADER]: String(Math.floor(now.getTime() / 1000)) };
      expect((await callback(retimed, stale.rawBody)).statusCode).toBe(401);
      expect(await ekycStatus(server, who)).toBe(EKYC_STATUS.created);
      // The genuine one still works.
      expect((await callback(genuine.headers, genuine.rawBody)).statusCode).toBe(200);
      expect(await ekycStatus(server, who)).toBe(EKYC_STATUS.bankerProcessing);
    });

    it('answers 400 for a signed body that is no event, 404 for an unknown session', async () => {
      const now = server.clock.now();
      const timestamp = Math.floor(now.getTime() / 1000);
      const raw = Buffer.from('{"sessionId":"x","state":"done"}');
      const headers = { 'content-type': 'application/json', [TIMESTAMP_HEADER]: String(timestamp), [SIGNATURE_HEADER]: signCallback(SECRET, timestamp, raw) };
      const malformed = await callback(headers, raw);
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toEqual({ message: messages.badRequest });
      const unknown = signedCallback(SECRET, { sessionId: 'sim_nobody', state: 'approved', supplement: false }, now);
      expect((await callback(unknown.headers, unknown.rawBody)).statusCode).toBe(404);
    });
  });
});
