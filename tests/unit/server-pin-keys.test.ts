import { constants, createPublicKey, generateKeyPairSync, publicEncrypt, webcrypto } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { loadSecrets } from '../../src/server/db/secrets.js';
import { loadPinKeys, pinKeyToGenerate, rotatePinKey } from '../../src/server/pin/keys.js';

const payload = Buffer.from('{"pin":"2580","binding":"b"}');

async function webCryptoEncrypt(keyCode: string): Promise<Buffer> {
  const key = await webcrypto.subtle.importKey('spki', Buffer.from(keyCode, 'base64'), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  return Buffer.from(await webcrypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, payload));
}

interface JsEncrypt {
  setPublicKey(key: string): void;
  encrypt(text: string): string | false;
  encryptOAEP(text: string): string | false;
}

/** jsencrypt's browser build, loaded in Node: it looks for `window` and `self`. */
function jsencrypt(): JsEncrypt {
  const global = globalThis as Record<string, unknown>;
  global.window ??= globalThis;
  global.self ??= globalThis;
  // The package's CommonJS build exports the class as module.exports (or .default).
  const loaded = createRequire(import.meta.url)('jsencrypt') as { default?: new () => JsEncrypt } & (new () => JsEncrypt);
  const JSEncrypt = loaded.default ?? loaded;
  return new JSEncrypt();
}

describe('PIN keys', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('in memory: a 2048-bit key whose SPKI base64 Web Crypto and jsencrypt (OAEP) both use; PKCS#1 v1.5 fails', async () => {
    const store = await loadPinKeys({ dataDir: ':memory:', pinKeyFile: null });
    const { keyId, keyCode } = store.current;
    expect(keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(createPublicKey({ key: Buffer.from(keyCode, 'base64'), format: 'der', type: 'spki' }).asymmetricKeyDetails?.modulusLength).toBe(2048);

    expect(await store.decrypt(keyId, await webCryptoEncrypt(keyCode))).toEqual(payload);

    const browser = jsencrypt();
    browser.setPublicKey(keyCode);
    const oaep = browser.encryptOAEP(payload.toString());
    expect(typeof oaep).toBe('string');
    expect(await store.decrypt(keyId, Buffer.from(oaep as string, 'base64'))).toEqual(payload);
    // jsencrypt's plain encrypt() is PKCS#1 v1.5: refused, like Node's own.
    const legacy = browser.encrypt(payload.toString());
    expect(await store.decrypt(keyId, Buffer.from(legacy as string, 'base64'))).toBeNull();
    const nodeLegacy = publicEncrypt({ key: createPublicKey({ key: Buffer.from(keyCode, 'base64'), format: 'der', type: 'spki' }), padding: constants.RSA_PKCS1_PADDING }, payload);
    expect(await store.decrypt(keyId, nodeLegacy)).toBeNull();
    expect(await store.decrypt('0000000000000000', await webCryptoEncrypt(keyCode))).toBeNull();
  });

  it('on disk: generated once (3072 bits, mode 600), reused, rotated with the old key still decrypting', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kouza-keys-'));
    const config = { dataDir: dir, pinKeyFile: null };
    // The server generates a first key behind the start (plugins/pin-keys.ts), never a later one.
    expect(await pinKeyToGenerate(config)).toBe(true);
    const first = await loadPinKeys(config);
    expect(await pinKeyToGenerate(config)).toBe(false);
    const files = await readdir(path.join(dir, 'keys'));
    expect(files).toEqual([expect.stringMatching(new RegExp(`^\\d{8}T\\d{6}Z_${first.current.keyId}\\.pem$`))]);
    expect((await stat(path.join(dir, 'keys', files[0] ?? ''))).mode & 0o777).toBe(0o600);
    expect((await stat(path.join(dir, 'keys'))).mode & 0o777).toBe(0o700);
    expect(first.current.privateKey.asymmetricKeyDetails?.modulusLength).toBe(3072);
    expect((await loadPinKeys(config)).current.keyId).toBe(first.current.keyId);

    const old = await webCryptoEncrypt(first.current.keyCode);
    const rotated = await rotatePinKey(dir, new Date(Date.now() + 60_000));
    const after = await loadPinKeys(config);
    expect(after.current.keyId).toBe(rotated.keyId);
    expect(await after.decrypt(first.current.keyId, old)).toEqual(payload);
    // A server started before the rotation finds the new key when a browser uses it.
    expect(await first.decrypt(rotated.keyId, await webCryptoEncrypt(rotated.keyCode))).toEqual(payload);
  });

  it('PIN_KEY_FILE: the given key is current; a key under 2048 bits is refused', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kouza-keys-'));
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const file = path.join(dir, 'bank.pem');
    await writeFile(file, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const store = await loadPinKeys({ dataDir: ':memory:', pinKeyFile: file });
    expect(await store.decrypt(store.current.keyId, await webCryptoEncrypt(store.current.keyCode))).toEqual(payload);

    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    await writeFile(file, weak.export({ type: 'pkcs8', format: 'pem' }));
    await expect(loadPinKeys({ dataDir: ':memory:', pinKeyFile: file })).rejects.toThrow(/2048/);
  });
});

describe('secrets: the eKYC callback secret', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('is generated with the pepper, and added to a secrets.json written before it existed', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kouza-secrets-'));
    const config = { ...loadConfig({}), dataDir: dir };
    const file = path.join(dir, 'secrets.json');
    await writeFile(file, JSON.stringify({ hmacPepper: 'p'.repeat(43) }), { mode: 0o600 });
    const upgraded = await loadSecrets(config);
    expect(upgraded.hmacPepper).toBe('p'.repeat(43));
    expect(Buffer.from(upgraded.ekycCallbackSecret ?? '', 'base64url')).toHaveLength(32);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(upgraded);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await loadSecrets(config)).toEqual(upgraded);
  });
});
