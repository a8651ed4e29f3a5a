import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EKYC_STATUS } from '../../src/domain/ekyc.js';
import { oidcStandinStore, verificationRecords } from '../../src/server/db/schema.js';
import { confirmedApplication, ekycStatus, setPin, startEkyc, type Signed } from './application-fixtures.js';
import { startTestServer, throwawaySchema, type TestServer } from './helpers.js';
import { Browser } from './oidc-browser.js';

/**
 * The stand-in OpenID provider keeps its state in the database (oidc-standin-store.ts) and
 * derives its keys from the shared pepper: an authorization begun on one server process is
 * finished by another, and one begun before a restart is finished after it.
 */

const testDatabaseUrl = process.env.TEST_DATABASE_URL;

async function listen(server: TestServer, port = 0): Promise<number> {
  await server.app.listen({ host: '127.0.0.1', port });
  return (server.app.server.address() as AddressInfo).port;
}

async function applicantWithPin(server: TestServer): Promise<Signed> {
  const who = await confirmedApplication(server, '0177', 'GENERAL');
  expect((await setPin(server, who)).statusCode).toBe(200);
  return who;
}

async function authorizationUrl(server: TestServer, who: Signed): Promise<URL> {
  const started = await startEkyc(server, who, { supplement: false, method: 'JPKI_SIGNATURE' });
  expect(started.statusCode, started.body).toBe(200);
  return new URL(started.json<{ url: string }>().url);
}

describe.skipIf(!testDatabaseUrl)('the stand-in OpenID provider on two app instances sharing PostgreSQL (skipped without TEST_DATABASE_URL)', () => {
  let database: Awaited<ReturnType<typeof throwawaySchema>>;
  let first: TestServer;
  let second: TestServer;
  let firstPort = 0;
  let secondPort = 0;

  beforeAll(async () => {
    database = await throwawaySchema(testDatabaseUrl ?? '');
    // What a deployment gives every process alike: the database and the pepper.
    const shared = { databaseUrl: database.databaseUrl, secrets: { hmacPepper: randomBytes(32).toString('base64url') } };
    second = await startTestServer({ name: 'pglite' }, { config: shared });
    secondPort = await listen(second);
    // Both name one issuer, as processes behind one address do (start:cluster: one PORT);
    // here the second's port, so the relying party's calls (token, userinfo) reach the second.
    const standinOrigin = `http://127.0.0.1:${secondPort}`;
    first = await startTestServer({ name: 'pglite' }, { config: { ...shared, ekycOidc: { ...second.config.ekycOidc, standinOrigin } } });
    firstPort = await listen(first);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database?.drop();
  });

  it('serves the same signing keys from both', async () => {
    const keys = await Promise.all(
      [firstPort, secondPort].map(async (port) => (await new Browser(port).send(new URL(`http://127.0.0.1:${port}/oidc-provider/jwks`))).body),
    );
    expect(JSON.parse(keys[0] ?? '')).toMatchObject({ keys: [{ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' }] });
    expect(keys[0]).toBe(keys[1]);
  });

  it('starts the authorization on one instance and finishes it, code exchange included, on the other', async () => {
    const who = await applicantWithPin(first);
    const authorization = await authorizationUrl(first, who);
    const browser = new Browser(firstPort);
    // The provider's session and interaction are made by the second, their cookies signed there…
    const toLogin = await browser.send(authorization, 'GET', undefined, secondPort);
    expect(toLogin.status).toBe(303);
    expect(toLogin.location.pathname).toMatch(/^\/oidc-provider\/interaction\//);
    // …and read by the first (the interaction page), the choice posted to the second.
    expect((await browser.send(toLogin.location, 'GET', undefined, firstPort)).status).toBe(200);
    const chosen = await browser.send(toLogin.location, 'POST', { identity: 'self' }, secondPort);
    expect(chosen.status).toBe(303);
    // The first resumes the authorization and issues the code.
    const resumed = await browser.send(chosen.location, 'GET', undefined, firstPort);
    expect(resumed.status).toBe(303);
    expect(resumed.location.pathname).toBe('/api/ekyc/oidc/callback');
    expect(resumed.location.searchParams.get('code')).toBeTruthy();
    // The second's relying party finishes: it exchanges the first's code at its own provider.
    const back = await browser.send(resumed.location, 'GET', undefined, secondPort);
    expect(back.status).toBe(303);
    expect(back.location.pathname).toBe('/ekyc-callback');
    expect(await ekycStatus(first, who)).toBe(EKYC_STATUS.bankerProcessing);
    const records = await second.app.db.select().from(verificationRecords).where(eq(verificationRecords.applicationId, who.id));
    expect(records).toMatchObject([{ method: 'JPKI_SIGNATURE', provider: 'oidc' }]);
    // The code is spent for both: a replay at the provider finds it consumed.
    const stored = await first.app.db.select().from(oidcStandinStore).where(eq(oidcStandinStore.model, 'AuthorizationCode'));
    expect(stored.some((row) => row.consumedAt !== null)).toBe(true);
  });
});

describe('the stand-in OpenID provider across a restart of the server (PGlite on disk)', () => {
  let folder = '';
  let server: TestServer | undefined;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'kouza-oidc-restart-'));
  });
  afterAll(async () => {
    await server?.close();
    await rm(folder, { recursive: true, force: true });
  });

  // The same DATA_DIR (the database and secrets.json) and the same port, as a restart has.
  const start = () => startTestServer({ name: 'pglite' }, { config: { dataDir: folder, secrets: undefined } });

  it('keeps an authorization under way: the choice made after the restart completes the check', async () => {
    server = await start();
    const port = await listen(server);
    const who = await applicantWithPin(server);
    const browser = new Browser(port);
    const toLogin = await browser.send(await authorizationUrl(server, who));
    expect(toLogin.status).toBe(303);
    expect((await browser.send(toLogin.location)).status).toBe(200);

    await server.close();
    server = await start();
    expect(await listen(server, port)).toBe(port);

    const chosen = await browser.send(toLogin.location, 'POST', { identity: 'self' });
    expect(chosen.status).toBe(303);
    const resumed = await browser.send(chosen.location);
    expect(resumed.location.pathname).toBe('/api/ekyc/oidc/callback');
    const back = await browser.send(resumed.location);
    expect(back.location.pathname).toBe('/ekyc-callback');
    expect(await ekycStatus(server, who)).toBe(EKYC_STATUS.bankerProcessing);
  });
});
