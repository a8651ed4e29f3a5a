import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_DATA_IDS } from '../../src/domain/page-data.js';
import { httpMessages } from '../../src/server/http-messages.js';
import pages from '../../src/server/plugins/pages.js';
import { confirmedApplication, setPin, startEkyc, upload, uploadOk, type Signed } from './application-fixtures.js';
import { hostOf, startTestServer, type TestServer } from './helpers.js';

/**
 * Which identity-check methods an applicant may use is the banks' configuration by date
 * (bank.json identityCheckMethods, ADR 0037): the banks offer the photo-ID method and the
 * child's document images until 2027-03-31 and JPKI throughout, so the server's clock alone
 * moves a page and POST /api/ekyc from one set to the other, with no release between.
 */
const LAST_DAY = new Date('2027-03-31T23:59:00+09:00');
const FIRST_DAY = new Date('2027-04-01T00:00:30+09:00');

let distDir: string;
beforeAll(async () => {
  distDir = await mkdtemp(path.join(tmpdir(), 'kouza-methods-'));
  await writeFile(path.join(distDir, 'index.html'), '<!doctype html><html><head><title>口座開設のお申込み</title><!--client-settings--></head><body></body></html>');
});
afterAll(() => rm(distDir, { recursive: true, force: true }));

/** A listening server with pages whose identity-check methods are those of `day` (IDENTITY_CHECK_METHODS_DAY), or of its clock's day (null). */
async function serverOn(day: string | null): Promise<TestServer> {
  const server = await startTestServer(
    { name: 'pglite' },
    {
      config: { identityCheckMethodsDay: day },
      pages: async (instance) => instance.register(pages, { distDir, flows: [], analyticsMeasurementId: null, ekycPollIntervalMs: null, session: { idleMs: 1_800_000, warningMs: 120_000 }, production: false }),
    },
  );
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  return server;
}

/** The methods a page served now tells its flows (the client settings' data block). */
async function methodsOnThePage(server: TestServer, bankCode: string): Promise<string[]> {
  const response = await server.app.inject({ method: 'GET', url: '/term', headers: { host: hostOf(server, bankCode) } });
  const block = new RegExp(`<script id="${PAGE_DATA_IDS.settings}" type="application/json">(.*?)</script>`, 's').exec(response.body);
  if (!block?.[1]) throw new Error('no settings block in the page');
  return (JSON.parse(block[1]) as { identityCheckMethods: string[] }).identityCheckMethods;
}

// Without IDENTITY_CHECK_METHODS_DAY (the tests' other servers have it): the clock decides.
describe('identity-check methods by date', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serverOn(null);
  });
  afterAll(() => server.close());

  /** An application with its PIN set on the last day of the photo-ID method, a minute before midnight. */
  async function readyOnTheLastDay(): Promise<Signed> {
    server.clock.current = LAST_DAY;
    const who = await confirmedApplication(server, '0587');
    expect((await setPin(server, who)).statusCode).toBe(200);
    return who;
  }

  it('tells the page every method on 2027-03-31 and only JPKI from 2027-04-01, for every bank', async () => {
    for (const code of ['0177', '0587', '0181']) {
      server.clock.current = LAST_DAY;
      expect(await methodsOnThePage(server, code)).toEqual(['IMAGE_SELFIE_PHOTO_ID', 'JPKI_SIGNATURE', 'CHILD_DOCUMENT_IMAGES']);
      server.clock.current = FIRST_DAY;
      expect(await methodsOnThePage(server, code)).toEqual(['JPKI_SIGNATURE']);
    }
  });

  it('starts either method on the last day; without a method, the bank\'s first', async () => {
    const photo = await readyOnTheLastDay();
    const byDefault = await startEkyc(server, photo);
    expect(byDefault.statusCode).toBe(200);
    expect(new URL(byDefault.json<{ url: string }>().url, 'http://x').pathname).toMatch(/^\/ekyc-simulator\//);

    const jpki = await readyOnTheLastDay();
    const started = await startEkyc(server, jpki, { supplement: false, method: 'JPKI_SIGNATURE' });
    expect(started.statusCode).toBe(200);
    expect(new URL(started.json<{ url: string }>().url).pathname).toBe('/oidc-provider/auth');
  });

  it('refuses the photo-ID method from the first minute of 2027-04-01 (409) and starts JPKI by default', async () => {
    const who = await readyOnTheLastDay();
    server.clock.current = FIRST_DAY;
    const photo = await startEkyc(server, who, { supplement: false, method: 'IMAGE_SELFIE_PHOTO_ID' });
    expect(photo.statusCode).toBe(409);
    expect(photo.json()).toEqual({ message: httpMessages.ekycMethodNotOffered });
    const byDefault = await startEkyc(server, who);
    expect(byDefault.statusCode).toBe(200);
    expect(new URL(byDefault.json<{ url: string }>().url).pathname).toBe('/oidc-provider/auth');
  });

  it('takes no child document and starts no parent\'s check from 2027-04-01 (the child\'s part is its images)', async () => {
    server.clock.current = LAST_DAY;
    const child = await confirmedApplication(server, '0181', 'CHILD');
    await uploadOk(server, child, 'INDIVIDUAL_NUMBER_CARD');
    server.clock.current = FIRST_DAY;
    const late = await upload(server, child, 'CERTIFICATE_RESIDENCE');
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ message: httpMessages.documentNotExpected });
    server.clock.current = LAST_DAY;
    await uploadOk(server, child, 'CERTIFICATE_RESIDENCE');
    expect((await setPin(server, child)).statusCode).toBe(200);
    server.clock.current = FIRST_DAY;
    const started = await startEkyc(server, child, { supplement: false, method: 'JPKI_SIGNATURE' });
    expect(started.statusCode).toBe(409);
    expect(started.json()).toEqual({ message: httpMessages.ekycMethodNotOffered });
  });

  it('refuses a method no bank offers (IC_CHIP_AND_FACE: 409) and one that is no method (400)', async () => {
    const who = await readyOnTheLastDay();
    expect((await startEkyc(server, who, { supplement: false, method: 'IC_CHIP_AND_FACE' })).statusCode).toBe(409);
    expect((await startEkyc(server, who, { supplement: false, method: 'CHILD_DOCUMENT_IMAGES' })).statusCode).toBe(400);
    expect((await startEkyc(server, who, { supplement: false, method: 'FAX' })).statusCode).toBe(400);
  });
});

describe('IDENTITY_CHECK_METHODS_DAY decides the methods, whatever the clock says', () => {
  const cases = [
    { day: '2027-04-01', clock: LAST_DAY, offered: ['JPKI_SIGNATURE'], photoId: 409, childDocument: 409 },
    { day: '2027-03-31', clock: FIRST_DAY, offered: ['IMAGE_SELFIE_PHOTO_ID', 'JPKI_SIGNATURE', 'CHILD_DOCUMENT_IMAGES'], photoId: 200, childDocument: 201 },
  ];
  for (const { day, clock, offered, photoId, childDocument } of cases) {
    describe(`set to ${day}, the clock at ${clock.toISOString()}`, () => {
      let server: TestServer;
      beforeAll(async () => {
        server = await serverOn(day);
      });
      afterAll(() => server.close());

      it(`tells the page ${offered.join(', ')}, starts the photo-ID method with ${photoId} and takes a child's document with ${childDocument}`, async () => {
        server.clock.current = clock;
        expect(await methodsOnThePage(server, '0177')).toEqual(offered);
        const who = await confirmedApplication(server, '0587');
        expect((await setPin(server, who)).statusCode).toBe(200);
        expect((await startEkyc(server, who, { supplement: false, method: 'IMAGE_SELFIE_PHOTO_ID' })).statusCode).toBe(photoId);
        const child = await confirmedApplication(server, '0181', 'CHILD');
        expect((await upload(server, child, 'INDIVIDUAL_NUMBER_CARD')).statusCode).toBe(childDocument);
      });
    });
  }
});
