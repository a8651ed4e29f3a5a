import { Writable } from 'node:stream';
import { webcrypto } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import { applicationPins } from '../../src/server/db/schema.js';
import { httpMessages } from '../../src/server/http-messages.js';
import {
  confirmedApplication,
  encryptPin,
  encryptPinPkcs1,
  GOOD_PIN,
  headersOf,
  postPin,
  publicKey,
  saveParent,
  saveSteps,
  setPin,
  signedIn,
} from './application-fixtures.js';
import { backends, MINUTE, startTestServer, type TestServer } from './helpers.js';

describe.each(backends)('PIN ($name)', (backend) => {
  let server: TestServer;
  const lines: string[] = [];
  beforeAll(async () => {
    // Logging on, into memory: no PIN and no ciphertext may reach a log line.
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    server = await startTestServer(backend, { config: { logLevel: 'debug' }, logStream });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => server.clock.reset());

  it('hands out an RSA public key of 2048 bits or more as SPKI DER base64, with its id and a binding', async () => {
    const who = await confirmedApplication(server);
    const answer = await publicKey(server, who);
    expect(answer.keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(answer.keyCode).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(answer.keyCode).not.toContain('BEGIN');
    expect(answer.binding).toMatch(/^[0-9a-z]+\.[0-9a-f]{64}$/);
    const key = await webcrypto.subtle.importKey('spki', Buffer.from(answer.keyCode, 'base64'), { name: 'RSA-OAEP', hash: 'SHA-256' }, true, ['encrypt']);
    expect((key.algorithm as RsaHashedKeyAlgorithm).modulusLength).toBeGreaterThanOrEqual(2048);
    // Another application gets another binding for the same key.
    const other = await publicKey(server, await confirmedApplication(server));
    expect(other.keyId).toBe(answer.keyId);
    expect(other.binding).not.toBe(answer.binding);
  });

  it('wants a session', async () => {
    const who = await confirmedApplication(server);
    const host = headersOf(server, who).host;
    expect((await server.app.inject({ method: 'GET', url: '/api/public-key', headers: { host } })).statusCode).toBe(401);
    expect((await server.app.inject({ method: 'POST', url: '/api/pin', headers: { host }, payload: { code: 'AAAA' } })).statusCode).toBe(401);
  });

  it('stores the ciphertext as sent with its key id, answers {} and never the PIN', async () => {
    const who = await confirmedApplication(server);
    const { keyId, keyCode, binding } = await publicKey(server, who);
    const code = await encryptPin(keyCode, { pin: GOOD_PIN, binding });
    const response = await postPin(server, who, code, keyId);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({});
    const [stored] = await server.app.db.select().from(applicationPins).where(eq(applicationPins.applicationId, who.id));
    expect(stored).toMatchObject({ keyId, ciphertext: code });
    const application = await server.app.inject({ method: 'GET', url: '/api/applications', headers: headersOf(server, who) });
    expect(application.body).not.toContain(code);
    expect(application.body).not.toContain(GOOD_PIN);
    const logged = lines.join('');
    expect(logged).not.toContain(code.slice(0, 40));
    expect(logged).not.toContain(binding);
    expect(logged).not.toContain(`"pin":"${GOOD_PIN}"`);
  });

  it('takes the current key when keyId is left out', async () => {
    const who = await confirmedApplication(server);
    const { keyCode, binding } = await publicKey(server, who);
    expect((await postPin(server, who, await encryptPin(keyCode, { pin: GOOD_PIN, binding }))).statusCode).toBe(200);
  });

  it('refuses a second PIN (409) and stores one only, also for two sends at once', async () => {
    const who = await confirmedApplication(server);
    expect((await setPin(server, who)).statusCode).toBe(200);
    const again = await postPin(server, who, 'AAAA');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: httpMessages.pinAlreadySet });
    expect((await server.app.inject({ method: 'GET', url: '/api/public-key', headers: headersOf(server, who) })).statusCode).toBe(409);

    const twice = await confirmedApplication(server);
    const { keyId, keyCode, binding } = await publicKey(server, twice);
    const [first, second] = await Promise.all([
      postPin(server, twice, await encryptPin(keyCode, { pin: GOOD_PIN, binding }), keyId),
      postPin(server, twice, await encryptPin(keyCode, { pin: '7391', binding }), keyId),
    ]);
    expect([first?.statusCode, second?.statusCode].sort()).toEqual([200, 409]);
    expect(await server.app.db.select().from(applicationPins).where(eq(applicationPins.applicationId, twice.id))).toHaveLength(1);
  });

  it('refuses a ciphertext made for another application (400), which can then set its own', async () => {
    const victim = await confirmedApplication(server);
    const attacker = await confirmedApplication(server);
    const { keyId, keyCode, binding } = await publicKey(server, victim);
    const captured = await encryptPin(keyCode, { pin: GOOD_PIN, binding });
    await publicKey(server, attacker); // the attacker has live bindings of its own
    const replayed = await postPin(server, attacker, captured, keyId);
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json()).toEqual({ message: messages.badRequest });
    expect(await server.app.db.select().from(applicationPins).where(eq(applicationPins.applicationId, attacker.id))).toEqual([]);
    expect((await postPin(server, victim, captured, keyId)).statusCode).toBe(200);
    // A replay to the victim itself, now that its PIN is set: 409, nothing stored twice.
    expect((await postPin(server, victim, captured, keyId)).statusCode).toBe(409);
    expect((await setPin(server, attacker)).statusCode).toBe(200);
  });

  it('refuses a PKCS#1 v1.5 ciphertext, garbage, an unknown key and a payload without binding (400)', async () => {
    const who = await confirmedApplication(server);
    const { keyId, keyCode, binding } = await publicKey(server, who);
    const cases = [
      encryptPinPkcs1(keyCode, { pin: GOOD_PIN, binding }),
      Buffer.alloc(256, 7).toString('base64'),
      await encryptPin(keyCode, { pin: GOOD_PIN }),
      await encryptPin(keyCode, GOOD_PIN),
      await encryptPin(keyCode, { pin: GOOD_PIN, binding: 'x'.repeat(43) }),
      // This application's binding with its MAC altered, and with its time moved an hour on.
      await encryptPin(keyCode, { pin: GOOD_PIN, binding: binding.replace(/.$/, (last) => (last === '0' ? '1' : '0')) }),
      await encryptPin(keyCode, { pin: GOOD_PIN, binding: binding.replace(/^[0-9a-z]+/, (time) => (Number.parseInt(time, 36) + 3_600_000).toString(36)) }),
    ];
    for (const code of cases) {
      const response = await postPin(server, who, code, keyId);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: messages.badRequest });
    }
    const unknownKey = await postPin(server, who, await encryptPin(keyCode, { pin: GOOD_PIN, binding }), '0123456789abcdef');
    expect(unknownKey.statusCode).toBe(400);
    for (const payload of [{}, { code: 'not base64!' }, { code: 'AAAA', keyId: '../../etc/passwd' }, { code: 'A'.repeat(2000) }]) {
      const response = await server.app.inject({ method: 'POST', url: '/api/pin', headers: headersOf(server, who), payload });
      expect(response.statusCode).toBe(400);
    }
    // None of it used up the binding.
    expect((await postPin(server, who, await encryptPin(keyCode, { pin: GOOD_PIN, binding }), keyId)).statusCode).toBe(200);
  });

  it.each([
    ['12a4', messages.pinFormat],
    ['１２３４', messages.pinFormat],
    ['12345', messages.pinFormat],
    ['0000', messages.pinForbidden],
    ['5555', messages.pinForbidden],
    ['1990', messages.pinBirthday], // YYYY
    ['0501', messages.pinBirthday], // MMDD
    ['9005', messages.pinBirthday], // YYMM
    ['0205', messages.pinBirthday], // 平成02年05月
    ['2468', messages.pinPhone], // mobile
    ['3690', messages.pinPhone], // home
    ['4817', messages.pinPhone], // workplace
    ['1812', messages.pinAddress], // address, first 4 digits
    ['1203', messages.pinAddress], // address, last 4 digits
    ['1207', messages.pinAddress], // kana address, last 4 digits
  ])('refuses %j after decrypting it: 400 %s', async (pin, message) => {
    const who = await confirmedApplication(server);
    const response = await setPin(server, who, pin);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message, errors: [{ field: 'pin', message }] });
    expect(await server.app.db.select().from(applicationPins).where(eq(applicationPins.applicationId, who.id))).toEqual([]);
  });

  it('checks the temporary address when no registered address was found', async () => {
    const who = await signedIn(server);
    await saveSteps(server, who, {
      addressCode: null,
      address: null,
      subAddress: null,
      kanaAddress: null,
      kanaSubAddress: null,
      tempAddressPrefecture: '熊本県',
      tempAddress: '熊本市中央区水前寺6丁目18-1 コーポ305',
      kanaTempAddress: 'ｸﾏﾓﾄｼ 6ﾁｮｳﾒ18-1 ｺｰﾎﾟ405',
    });
    for (const pin of ['6181', '1305', '1405']) {
      expect((await setPin(server, who, pin)).json()).toMatchObject({ message: messages.pinAddress });
    }
    expect((await setPin(server, who, '1812')).statusCode).toBe(200);
  });

  it.each([
    ['1990', messages.pinBirthday], // the child's birthday (savedSteps)
    ['2468', messages.pinPhone], // the child's mobile
    ['1965', messages.pinBirthday], // the parent's: YYYY
    ['0817', messages.pinBirthday], // MMDD
    ['6508', messages.pinBirthday], // YYMM
    ['4008', messages.pinBirthday], // 昭和40年08月
    ['9753', messages.pinPhone], // the parent's mobile
    ['6420', messages.pinPhone], // home
    ['3571', messages.pinPhone], // workplace
    ['1203', messages.pinAddress], // the household's address
  ])('a child application: refuses %j, built from the child or the parent (400 %s)', async (pin, message) => {
    const who = await confirmedApplication(server, '0587', 'CHILD');
    const response = await setPin(server, who, pin);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message, errors: [{ field: 'pin', message }] });
    expect(await server.app.db.select().from(applicationPins).where(eq(applicationPins.applicationId, who.id))).toEqual([]);
  });

  it("a child application: the parent's data counts only for a child application", async () => {
    // The same parent's numbers are fine for a general applicant, and GOOD_PIN for the child.
    const general = await confirmedApplication(server);
    expect((await setPin(server, general, '9753')).statusCode).toBe(200);
    const child = await confirmedApplication(server, '0177', 'CHILD');
    expect((await setPin(server, child)).statusCode).toBe(200);
  });

  it('a child application: 409 before the parent step is saved', async () => {
    const who = await signedIn(server, '0177', 'CHILD');
    await saveSteps(server, who);
    const response = await setPin(server, who);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: httpMessages.stepsIncomplete });
    await saveParent(server, who);
    expect((await setPin(server, who)).statusCode).toBe(200);
  });

  it('answers 409 before the personal step is saved', async () => {
    const who = await signedIn(server);
    const response = await setPin(server, who);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: httpMessages.stepsIncomplete });
  });

  it('lets a binding expire after an hour', async () => {
    const who = await confirmedApplication(server);
    const { keyId, keyCode, binding } = await publicKey(server, who);
    // Keep the session alive (30 idle minutes) while the binding ages past its hour.
    for (let i = 0; i < 3; i += 1) {
      server.clock.advance(21 * MINUTE);
      await server.app.inject({ method: 'GET', url: '/api/applications', headers: headersOf(server, who) });
    }
    const response = await postPin(server, who, await encryptPin(keyCode, { pin: GOOD_PIN, binding }), keyId);
    expect(response.statusCode).toBe(400);
    expect((await setPin(server, who)).statusCode).toBe(200);
  });
});
