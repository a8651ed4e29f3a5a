/**
 * Encrypts the cash-card PIN for POST /api/pin (spec sections 4 and 5: "The PIN is
 * RSA-encrypted with a server-provided public key before sending").
 *
 * What is encrypted: the UTF-8 bytes of the JSON {"pin":"1234","binding":"<binding>"}, where the
 * binding is the value GET /api/public-key answered with the key, signed for this application
 * (the server refuses a ciphertext whose binding is not this application's live one, so a
 * captured ciphertext cannot be replayed for another application). Padding: RSA-OAEP with SHA-256 (and MGF1-SHA-256).
 *
 * Two implementations of the same thing:
 * - Web Crypto where `crypto.subtle` exists (every current browser in a secure context);
 * - jsencrypt's encryptOAEP otherwise (an old WebView, or a page served over plain http
 *   where `crypto.subtle` is undefined). jsencrypt is loaded only then (dynamic import),
 *   so nobody else downloads it.
 *
 * The PIN is never logged, and the plaintext buffer is zeroed after use where we own it.
 */

/** The key as GET /api/public-key answers it: SPKI DER in base64 (PEM armour tolerated). */
export type PublicKeyCode = string;

export class PinEncryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PinEncryptionError';
  }
}

/** The plaintext the server expects. */
export function pinPayload(pin: string, binding: string): string {
  return JSON.stringify({ pin, binding });
}

/** The bare base64 of the key: PEM header, footer and line breaks removed. */
export function keyBase64Of(keyCode: PublicKeyCode): string {
  return keyCode
    .replace(/-----(BEGIN|END) [A-Z ]+-----/g, '')
    .replace(/\s+/g, '');
}

/** The key as PEM, for jsencrypt (it reads PEM; 64-character lines as in RFC 7468). */
export function keyPemOf(keyCode: PublicKeyCode): string {
  const lines = keyBase64Of(keyCode).match(/.{1,64}/g) ?? [];
  return `-----BEGIN PUBLIC KEY-----\n${lines.join('\n')}\n-----END PUBLIC KEY-----`;
}

function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 1) binary += String.fromCharCode(bytes[i] ?? 0);
  return btoa(binary);
}

/**
 * A JS string holding one UTF-8 byte per character (0-255). jsencrypt's OAEP padding treats
 * every character of its input as one byte (it XORs char codes), so non-ASCII text must be
 * turned into its UTF-8 bytes first, or anything beyond U+00FF would be corrupted.
 */
export function utf8ByteString(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let out = '';
  for (let i = 0; i < bytes.length; i += 1) out += String.fromCharCode(bytes[i] ?? 0);
  bytes.fill(0);
  return out;
}

/** Whether Web Crypto's RSA-OAEP is at hand (undefined outside secure contexts). */
export function hasWebCrypto(): boolean {
  return typeof globalThis.crypto !== 'undefined' && typeof globalThis.crypto.subtle?.importKey === 'function';
}

/** RSA-OAEP SHA-256 with Web Crypto; base64 ciphertext. */
export async function encryptWithWebCrypto(plaintext: string, keyCode: PublicKeyCode): Promise<string> {
  const { subtle } = globalThis.crypto;
  const key = await subtle.importKey('spki', base64ToBytes(keyBase64Of(keyCode)), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  const data = new TextEncoder().encode(plaintext);
  try {
    const ciphertext = await subtle.encrypt({ name: 'RSA-OAEP' }, key, data);
    return bytesToBase64(new Uint8Array(ciphertext));
  } finally {
    data.fill(0);
  }
}

/** RSA-OAEP SHA-256 with jsencrypt (loaded on first use); base64 ciphertext. */
export async function encryptWithJsencrypt(plaintext: string, keyCode: PublicKeyCode): Promise<string> {
  const { JSEncrypt } = await import('jsencrypt');
  const cipher = new JSEncrypt();
  cipher.setPublicKey(keyPemOf(keyCode));
  const encrypted = cipher.encryptOAEP(utf8ByteString(plaintext));
  if (typeof encrypted !== 'string' || encrypted.length === 0) throw new PinEncryptionError('jsencrypt could not encrypt with this key');
  return encrypted;
}

/**
 * The base64 ciphertext of {"pin","binding"} under the server's key. Web Crypto where
 * available, jsencrypt otherwise. Throws PinEncryptionError (or Web Crypto's own error) when
 * the key is unusable.
 */
export async function encryptPin(pin: string, binding: string, keyCode: PublicKeyCode): Promise<string> {
  const plaintext = pinPayload(pin, binding);
  return hasWebCrypto() ? encryptWithWebCrypto(plaintext, keyCode) : encryptWithJsencrypt(plaintext, keyCode);
}
