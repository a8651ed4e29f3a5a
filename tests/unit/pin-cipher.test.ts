import { generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  encryptPin,
  encryptWithJsencrypt,
  encryptWithWebCrypto,
  hasWebCrypto,
  keyPemOf,
  pinPayload,
} from '../../src/client/platform/pinCipher';
import { PinKeyStore, toPinKey } from '../../src/server/pin/keys';

/**
 * Both encryption paths of the PIN page against the server's own decryption (PinKeyStore,
 * RSA-OAEP with SHA-256), with a key pair made here.
 */
let store: PinKeyStore;
let keyCode: string;

beforeAll(() => {
  const key = toPinKey(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, 'test key');
  store = new PinKeyStore(key, [], null);
  // What GET /api/public-key answers: SPKI DER in base64.
  keyCode = key.keyCode;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

async function decrypt(base64: string): Promise<string> {
  const plain = await store.decrypt(store.current.keyId, Buffer.from(base64, 'base64'));
  if (!plain) throw new Error('the server did not decrypt it');
  return plain.toString('utf8');
}

describe('PIN encryption', () => {
  it('Web Crypto: RSA-OAEP SHA-256 over the UTF-8 JSON, base64, decryptable by the server', async () => {
    expect(hasWebCrypto()).toBe(true);
    const code = await encryptWithWebCrypto(pinPayload('1357', 'nonce-abc'), keyCode);
    expect(code).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(code, 'base64')).toHaveLength(256);
    expect(JSON.parse(await decrypt(code))).toEqual({ pin: '1357', binding: 'nonce-abc' });
  });

  it('jsencrypt: the same ciphertext format, decryptable by the server', async () => {
    const code = await encryptWithJsencrypt(pinPayload('2468', 'nonce-def'), keyCode);
    expect(Buffer.from(code, 'base64')).toHaveLength(256);
    expect(JSON.parse(await decrypt(code))).toEqual({ pin: '2468', binding: 'nonce-def' });
  });

  it('jsencrypt: non-ASCII text arrives as UTF-8 (bytes, not UTF-16 code units)', async () => {
    const text = pinPayload('1234', '暗証番号-ｶﾅ-é-😀');
    expect(await decrypt(await encryptWithJsencrypt(text, keyCode))).toBe(text);
    expect(await decrypt(await encryptWithWebCrypto(text, keyCode))).toBe(text);
  });

  it('accepts the key as PEM too', async () => {
    const code = await encryptWithJsencrypt('x', keyPemOf(keyCode));
    expect(await decrypt(code)).toBe('x');
    expect(await decrypt(await encryptWithWebCrypto('y', keyPemOf(keyCode)))).toBe('y');
  });

  it('encryptPin uses Web Crypto where it exists and jsencrypt where crypto.subtle is missing', async () => {
    expect(JSON.parse(await decrypt(await encryptPin('9012', 'b1', keyCode)))).toEqual({ pin: '9012', binding: 'b1' });
    // A page over plain http: crypto without subtle.
    const webCrypto = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: webCrypto.getRandomValues.bind(webCrypto) });
    expect(hasWebCrypto()).toBe(false);
    const code = await encryptPin('9012', 'b2', keyCode);
    vi.unstubAllGlobals();
    expect(JSON.parse(await decrypt(code))).toEqual({ pin: '9012', binding: 'b2' });
  });

  it('each encryption differs (OAEP is randomised), so equal PINs do not give equal ciphertexts', async () => {
    const a = await encryptPin('1357', 'n', keyCode);
    const b = await encryptPin('1357', 'n', keyCode);
    expect(a).not.toBe(b);
    const c = await encryptWithJsencrypt(pinPayload('1357', 'n'), keyCode);
    const d = await encryptWithJsencrypt(pinPayload('1357', 'n'), keyCode);
    expect(c).not.toBe(d);
  });

  it('refuses an unusable key', async () => {
    await expect(encryptWithJsencrypt('x', 'AAAA')).rejects.toThrow();
    await expect(encryptWithWebCrypto('x', 'AAAA')).rejects.toThrow();
  });
});
