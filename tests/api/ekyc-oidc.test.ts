import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { EKYC_STATUS } from '../../src/domain/ekyc.js';
import { ekycOidcSessions, ekycSessions, verificationRecords } from '../../src/server/db/schema.js';
import { complete, confirmedApplication, ekycStatus, headersOf, setPin, startEkyc, uploadOk, type Signed } from './application-fixtures.js';
import { backends, hostOf, testServerFor } from './helpers.js';
import { Browser } from './oidc-browser.js';

/**
 * the JPKI method (JPKI_SIGNATURE) against the stand-in OpenID provider, over real HTTP: the test server
 * listens on a loopback port and the test is the browser, following each redirect by hand
 * with a cookie jar, sending every request to that port under the URL's own Host header.
 */

describe.each(backends)('identity check over OpenID Connect with the stand-in provider ($name)', (backend) => {
  const server = testServerFor(backend);
  let port = 0;

  beforeAll(async () => {
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    port = (server.app.server.address() as AddressInfo).port;
  });

  async function withPin(applicationType: Signed['applicationType'] = 'GENERAL'): Promise<Signed> {
    const who = await confirmedApplication(server, '0177', applicationType);
    if (applicationType === 'CHILD') {
      await uploadOk(server, who, 'INDIVIDUAL_NUMBER_CARD');
      await uploadOk(server, who, 'CERTIFICATE_RESIDENCE');
    }
    expect((await setPin(server, who)).statusCode).toBe(200);
    return who;
  }

  /** Up to the provider's answer to the redirect_uri: the URL the browser is sent to next. */
  async function authorize(who: Signed, identity: 'self' | 'other', edit: (url: URL) => void = () => {}, browser = new Browser(port)) {
    const started = await startEkyc(server, who, { supplement: false, method: 'JPKI_SIGNATURE' });
    expect(started.statusCode).toBe(200);
    const authorization = new URL(started.json<{ url: string }>().url);
    expect(authorization.pathname).toBe('/oidc-provider/auth');
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('scope')).toBe('openid name address birthdate gender');
    edit(authorization);
    const toLogin = await browser.send(authorization);
    expect(toLogin.status).toBe(303);
    if (!toLogin.location.pathname.startsWith('/oidc-provider/interaction/')) return { browser, callback: toLogin.location };
    const pageAnswer = await browser.send(toLogin.location);
    expect(pageAnswer.status).toBe(200);
    expect(pageAnswer.body).toContain('マイナンバーカードの持ち主');
    // Its form's submission ends in a redirect to the bank's host: the policy allows that origin
    // (browsers apply form-action to the redirects too), and no other.
    const redirectOrigin = new URL(authorization.searchParams.get('redirect_uri') ?? '').origin;
    expect(pageAnswer.policy.split(';')).toContain(`form-action 'self' ${redirectOrigin}`);
    const chosen = await browser.send(toLogin.location, 'POST', { identity });
    expect(chosen.status).toBe(303);
    const resumed = await browser.send(chosen.location);
    expect(resumed.status).toBe(303);
    return { browser, callback: resumed.location };
  }

  async function providerSessionOf(who: Signed): Promise<string> {
    const [row] = await server.app.db.select({ id: ekycSessions.providerSessionId }).from(ekycSessions).where(eq(ekycSessions.applicationId, who.id));
    return row?.id ?? '';
  }

  /** The whole answer of POST /api/ekyc/status, as the page's poller reads it. */
  async function statusAnswer(who: Signed): Promise<Record<string, unknown>> {
    const response = await server.app.inject({ method: 'POST', url: '/api/ekyc/status', headers: headersOf(server, who) });
    expect(response.statusCode).toBe(200);
    return response.json<Record<string, unknown>>();
  }

  async function records(who: Signed) {
    return server.app.db.select().from(verificationRecords).where(eq(verificationRecords.applicationId, who.id));
  }

  it('approves when the claims match, records them as JPKI evidence, and the application completes', async () => {
    const who = await withPin();
    const { browser, callback } = await authorize(who, 'self');
    expect(callback.pathname).toBe('/api/ekyc/oidc/callback');
    const back = await browser.send(callback);
    expect(back.status).toBe(303);
    expect(back.location.pathname).toBe('/ekyc-callback');
    expect(await ekycStatus(server, who)).toBe(EKYC_STATUS.bankerProcessing);
    const [record] = await records(who);
    expect(record).toMatchObject({ method: 'JPKI_SIGNATURE', provider: 'oidc' });
    expect((record?.evidence as { claims: { name: string } }).claims.name).toBe('山田　花子');
    expect((await complete(server, who)).statusCode).toBe(200);

    // The same authorization response again: the session is spent, nothing changes.
    const replayed = await browser.send(callback);
    expect(replayed.location.pathname).toBe('/ekyc-error');
    expect(await records(who)).toHaveLength(1);
  });

  it('asks for the card again on a new attempt, though the provider still has the earlier session in that browser', async () => {
    const who = await withPin();
    const first = await authorize(who, 'other');
    expect((await first.browser.send(first.callback)).location.pathname).toBe('/ekyc-callback');
    expect(await ekycStatus(server, who)).toBe(EKYC_STATUS.rejected);
    // The same browser, its provider cookies kept: prompt=login brings the card holder's choice back.
    const second = await authorize(who, 'self', (url) => expect(url.searchParams.get('prompt')).toBe('login'), first.browser);
    expect(second.callback.pathname).toBe('/api/ekyc/oidc/callback');
    expect((await second.browser.send(second.callback)).location.pathname).toBe('/ekyc-callback');
    expect(await ekycStatus(server, who)).toBe(EKYC_STATUS.bankerProcessing);
  });

  it('checks the parent of a child application: their name and birthday, back to the child flow\'s pages', async () => {
    const approved = await withPin('CHILD');
    const first = await authorize(approved, 'self');
    expect((await first.browser.send(first.callback)).location.pathname).toBe('/child/ekyc-callback');
    expect(await ekycStatus(server, approved)).toBe(EKYC_STATUS.bankerProcessing);
    const roles = (await records(approved)).map((record) => [record.subjectRole, record.method]).sort();
    expect(roles).toEqual([
      ['CHILD', 'CHILD_DOCUMENT_IMAGES'],
      ['REPRESENTATIVE', 'JPKI_SIGNATURE'],
    ]);

    const someoneElse = await withPin('CHILD');
    const second = await authorize(someoneElse, 'other');
    // The child flow's return page, whose poll of the rejected status leads to its eKYC error page.
    expect((await second.browser.send(second.callback)).location.pathname).toBe('/child/ekyc-callback');
    expect(await ekycStatus(server, someoneElse)).toBe(EKYC_STATUS.rejected);
    // The parent's name and birthday were compared, not an address.
    expect(await statusAnswer(someoneElse)).toEqual({ status: EKYC_STATUS.rejected, reason: 'mismatch', fields: ['name', 'birthday'] });
  });

  it('refuses a response with another state: error page, the session not approved', async () => {
    const who = await withPin();
    const { browser, callback } = await authorize(who, 'self');
    callback.searchParams.set('state', 'not-the-state-we-sent');
    const back = await browser.send(callback);
    expect(back.location.pathname).toBe('/ekyc-error');
    expect(await ekycStatus(server, who)).toBe(EKYC_STATUS.created);
    expect(await records(who)).toHaveLength(0);
  });

  it.each(['', '?code=abc', `?state=${'s'.repeat(2000)}&code=abc`, '?error=access_denied&state=unknown'])(
    'sends an answer for no open session (%#) to the error page and records nothing',
    async (query) => {
      const back = await new Browser(port).send(new URL(`http://${hostOf(server, '0177')}/api/ekyc/oidc/callback${query}`));
      expect(back.status).toBe(303);
      expect(back.location.pathname).toBe('/ekyc-error');
    },
  );

  it('answers the stand-in page of an unknown interaction with a Japanese 400, not a 500', async () => {
    const answer = await new Browser(port).send(new URL(`http://127.0.0.1:${port}/oidc-provider/interaction/unknown-uid`));
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('お申込み画面から本人確認をやり直してください');
  });

  it.each([
    ['a wrong PKCE verifier', { codeVerifier: 'x'.repeat(43) }],
    ['an ID token for another nonce', { nonce: 'nonce-of-another-session' }],
  ])('refuses the exchange with %s: error page, status failed', async (_name, change) => {
    const who = await withPin();
    const { browser, callback } = await authorize(who, 'self');
    // What the provider issued was for another verifier/nonce than the one this session holds.
    await server.app.db.update(ekycOidcSessions).set(change).where(eq(ekycOidcSessions.sessionId, await providerSessionOf(who)));
    const back = await browser.send(callback);
    expect(back.location.pathname).toBe('/ekyc-callback');
    expect(await ekycStatus(server, who)).toBe(EKYC_STATUS.failed);
    expect(await records(who)).toHaveLength(0);
  });

  it('refuses an authorization request without PKCE at the provider, and the session fails', async () => {
    const who = await withPin();
    const { browser, callback } = await authorize(who, 'self', (url) => {
      url.searchParams.delete('code_challenge');
      url.searchParams.delete('code_challenge_method');
    });
    expect(callback.pathname).toBe('/api/ekyc/oidc/callback');
    expect(callback.searchParams.get('error')).toBe('invalid_request');
    const back = await browser.send(callback);
    expect(back.location.pathname).toBe('/ekyc-callback');
    expect(await ekycStatus(server, who)).toBe(EKYC_STATUS.failed);
  });

  it('rejects when the card is someone else: error page, status rejected, no record', async () => {
    const who = await withPin();
    const { browser, callback } = await authorize(who, 'other');
    const back = await browser.send(callback);
    expect(back.location.pathname).toBe('/ekyc-callback');
    expect(await ekycStatus(server, who)).toBe(EKYC_STATUS.rejected);
    expect(await records(who)).toHaveLength(0);
    const [row] = await server.app.db.select().from(ekycOidcSessions).where(eq(ekycOidcSessions.sessionId, await providerSessionOf(who)));
    expect(row?.reason).toBe('claims differ: name, birthday, address');
    // The poll says why, naming the items only: the page tells the applicant what differs.
    const answer = await statusAnswer(who);
    expect(answer).toEqual({ status: EKYC_STATUS.rejected, reason: 'mismatch', fields: ['name', 'birthday', 'address'] });
    expect(JSON.stringify(answer)).not.toMatch(/佐藤|山田|1975|福岡|東京/);
  });

  it('says nothing more than the status for a failure that is not a mismatch', async () => {
    const who = await withPin();
    const { browser, callback } = await authorize(who, 'self');
    await server.app.db.update(ekycOidcSessions).set({ nonce: 'nonce-of-another-session' }).where(eq(ekycOidcSessions.sessionId, await providerSessionOf(who)));
    await browser.send(callback);
    expect(await statusAnswer(who)).toEqual({ status: EKYC_STATUS.failed });
  });
});
