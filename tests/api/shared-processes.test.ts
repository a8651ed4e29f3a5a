import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { PIN_ATTEMPTS_PER_HOUR } from '../../src/server/routes/pin.js';
import { readDocument } from '../../src/server/uploads/store.js';
import { complete, decide, encryptPin, GOOD_PIN, headersOf, jpeg, png, publicKey, postPin, signedIn, startEkyc, uploadOk, type Signed } from './application-fixtures.js';
import { birthdayYearsAgo, HOUR, startTestServer, throwawaySchema, type Mailbox, type TestServer } from './helpers.js';

/**
 * Two server instances on one PostgreSQL database share every state of an application through
 * that database only: each has a DATA_DIR of its own (so a document written to disk would not
 * be found by the other), and the app keeps no application state in module scope (what
 * src/server keeps there is derived from files: compiled schemas, the furigana dictionary).
 * What a deployment must give every process alike, the tests give both: the HMAC pepper
 * (DATA_DIR/secrets.json) and the PIN key (PIN_KEY_FILE). A mail is sent by whichever
 * instance claims it first (each hears of the other's new mail through the database), so the
 * applicant's mailbox is both instances' outboxes together.
 */

type Json = Record<string, unknown>;

const testDatabaseUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!testDatabaseUrl)('two app instances share an application through PostgreSQL only (skipped without TEST_DATABASE_URL)', () => {
  // Skipped without TEST_DATABASE_URL: two app instances cannot open one PGlite (one process,
  // one instance per data directory), so sharing needs a real PostgreSQL.
  let database: Awaited<ReturnType<typeof throwawaySchema>>;
  let folder: string;
  let first: TestServer;
  let second: TestServer;
  const dataDirs: string[] = [];

  beforeAll(async () => {
    database = await throwawaySchema(testDatabaseUrl ?? '');
    folder = await mkdtemp(path.join(tmpdir(), 'kouza-shared-'));
    const pinKeyFile = path.join(folder, 'pin-key.pem');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await writeFile(pinKeyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    const shared = {
      databaseUrl: database.databaseUrl,
      secrets: { hmacPepper: randomBytes(32).toString('base64url') },
      pinKeyFile,
      mailQueue: { ...loadConfig({}).mailQueue, pollMs: HOUR },
    };
    const start = async (name: string) => {
      const dataDir = path.join(folder, name);
      await mkdir(dataDir);
      dataDirs.push(dataDir);
      // The backend's own schema is not created: both instances use the one above.
      return startTestServer({ name: 'pglite' }, { config: { ...shared, dataDir } });
    };
    const a = await start('a');
    const b = await start('b');
    const mailbox: Mailbox = {
      list: async () => (await Promise.all([a.outbox.list(), b.outbox.list()])).flat().sort((x, y) => y.sentAt.localeCompare(x.sentAt)),
    };
    first = { ...a, outbox: mailbox };
    second = { ...b, outbox: mailbox };
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database?.drop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  const post = (server: TestServer, who: Signed, url: string, payload: Json) =>
    server.app.inject({ method: 'POST', url: `/api${url}`, headers: headersOf(server, who), payload });

  /** The child flow's forms up to /child/confirmation, as the pages post them. */
  const childSteps = async (server: TestServer, who: Signed): Promise<[string, Json][]> => {
    const addresses = await server.app.inject({ method: 'GET', url: '/api/addresses?postalNumber=8100001', headers: headersOf(server, who) });
    const addressCode = addresses.json<{ addressList: { addressCode: string }[] }>().addressList[0]?.addressCode;
    return [
      ['/applications/personal', {
        lastName: '山田', firstName: '一郎', kanaLastName: 'ﾔﾏﾀﾞ', kanaFirstName: 'ｲﾁﾛｳ',
        birthday: birthdayYearsAgo(server.clock.now(), 10), gender: 'MAN', mobilePhoneNumber: '090-1111-3333', phoneNumber: null,
        noMatchingAddress: false, postalNumber: '8100001', addressCode, subAddress: '3-3-3', kanaSubAddress: '3-3-3',
        utilizationPurpose: ['LIVING'], utilizationPurposeOther: null, distanceTransactionReason: null,
      }],
      ['/applications/workplace', { occupationId: 12, occupationOther: null, workplaceName: null, workplacePhoneNumber: null, workplaceId: null, invitationCode: null }],
      ['/applications/personal/parent', {
        bankCode: who.bankCode, lastName: '山田', firstName: '次郎', kanaLastName: 'ﾔﾏﾀﾞ', kanaFirstName: 'ｼﾞﾛｳ', birthday: '1980-10-10',
        relationship: 'FATHER', mobilePhoneNumber: '080-3333-1111', phoneNumber: null, proxyApplicationReason: 'MINOR',
      }],
      ['/applications/workplace/parent', { occupationId: 99, occupationOther: '漁師', workplaceName: null, workplacePhoneNumber: null }],
      ['/applications/branch', { branchCode: '001' }],
    ];
  };

  it('takes a child application from register to completion across both, its documents uploaded on one and read on the other', async () => {
    // Registered on the second, the code verified on the first.
    const who = await signedIn(second, '0177', 'CHILD', first);
    for (const [url, body] of await childSteps(first, who)) {
      const saved = await post(first, who, url, body);
      expect(saved.statusCode, `${url} ${saved.body}`).toBe(200);
    }
    // The other instance knows the session and sees what the first one stored.
    const read = await second.app.inject({ method: 'GET', url: '/api/applications', headers: headersOf(second, who) });
    expect(read.statusCode).toBe(200);
    expect(read.json<{ application: Json }>().application).toMatchObject({ applicationType: 'CHILD', firstName: '一郎' });

    await uploadOk(first, who, 'INDIVIDUAL_NUMBER_CARD', png(1200, 800));
    await uploadOk(first, who, 'MATERNITY_HANDBOOK', await jpeg(900, 1300));
    // The key and binding from one instance, the PIN to the other.
    const { keyId, keyCode, binding } = await publicKey(second, who);
    expect((await postPin(first, who, await encryptPin(keyCode, { pin: GOOD_PIN, binding }), keyId)).statusCode).toBe(200);
    // The second instance finds the child's documents, starts the check; it is decided on the first.
    const started = await startEkyc(second, who);
    expect(started.statusCode, started.body).toBe(200);
    expect((await decide(first, who, started.json<{ url: string }>().url, 'approve')).statusCode).toBe(303);

    const completed = await complete(second, who);
    expect(completed.statusCode, completed.body).toBe(200);
    const { applicationNumber } = completed.json<{ applicationNumber: string }>();
    // Completion is once, whichever instance is asked again.
    expect((await complete(first, who)).json()).toMatchObject({ applicationNumber });

    // The images the first instance stored, read through the second.
    const card = await readDocument(second.app.db, who.id, 'INDIVIDUAL_NUMBER_CARD');
    expect(await sharp(card?.content).metadata()).toMatchObject({ format: 'png', width: 1200, height: 800 });
    const handbook = await readDocument(second.app.db, who.id, 'MATERNITY_HANDBOOK');
    expect(await sharp(handbook?.content).metadata()).toMatchObject({ format: 'jpeg', width: 900, height: 1300 });
    // Nothing of them on either instance's disk.
    for (const dataDir of dataDirs) expect(await readdir(dataDir)).not.toContain('documents');
  });

  it('counts the PIN tries of one session on both instances together', async () => {
    // The codes per address and per IP: tests/api/rate-limit-shared.test.ts.
    const who = await signedIn(second, '0177', 'GENERAL');
    for (let i = 0; i < PIN_ATTEMPTS_PER_HOUR; i += 1) {
      expect((await postPin(i % 2 === 0 ? first : second, who, 'not a PIN')).statusCode).not.toBe(429);
    }
    expect((await postPin(first, who, 'not a PIN')).statusCode).toBe(429);
    expect((await postPin(second, who, 'not a PIN')).statusCode).toBe(429);
  });
});
