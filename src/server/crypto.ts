import { createHash, createHmac, createPrivateKey, hkdfSync, randomBytes, randomInt, timingSafeEqual, type KeyObject } from 'node:crypto';

/**
 * Keyed hashes over what must not be stored in clear: the pepper (DATA_DIR/secrets.json) makes
 * a stolen table useless for guessing 6-digit codes or testing known mail addresses.
 */
export interface Hasher {
  /** Stable key of a mail address (lookups and the per-address rate limit). */
  mail(mailAddress: string): string;
  /** Hash of a code bound to its row: the same code on another row hashes differently. */
  code(rowId: string, code: string): string;
  /** Key of a rate-limit counter (a client IP, an address's HMAC): the table holds no IP. */
  rateLimitKey(key: string): string;
  /** The MAC of a PIN binding: the application it was given to, and when (pin/binding.ts). */
  pinBinding(applicationId: string, issuedAt: string): string;
  /** Constant-time comparison of two hex hashes. */
  equal(a: string, b: string): boolean;
}

/** Addresses differ only in case in practice; NFC keeps one spelling for one address. */
export function normalizeMailAddress(mailAddress: string): string {
  return mailAddress.normalize('NFC').trim().toLowerCase();
}

export function createHasher(pepper: string): Hasher {
  const key = Buffer.from(pepper, 'base64url');
  const hmac = (purpose: string, ...parts: string[]) =>
    createHmac('sha256', key).update([purpose, ...parts].join('\u0000')).digest('hex');
  return {
    mail: (mailAddress) => hmac('mail', normalizeMailAddress(mailAddress)),
    code: (rowId, code) => hmac('code', rowId, code),
    rateLimitKey: (key) => hmac('rate-limit', key),
    pinBinding: (applicationId, issuedAt) => hmac('pin-binding', applicationId, issuedAt),
    equal: (a, b) => a.length === b.length && timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex')),
  };
}

/** A 6-digit code, uniformly drawn (randomInt avoids the modulo bias of a byte). */
export function newVerificationCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/** 32 random bytes, base64url: what the browser holds as its authentication token. */
export function newAuthToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are high-entropy, so an unkeyed SHA-256 suffices to store them. */
export function hashAuthToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * `length` bytes derived from the server's pepper for one `purpose` (HKDF-SHA256): a key that
 * every process sharing DATA_DIR/secrets.json (or the pepper a test gives) derives alike, stable
 * across restarts, and unrelated to the pepper's other uses.
 */
export function derivedKeyBytes(pepper: string, purpose: string, length = 32): Buffer {
  return Buffer.from(hkdfSync('sha256', pepper, '', purpose, length));
}

// The DER prefix of a PKCS#8 Ed25519 private key, followed by its 32-byte seed (RFC 8410).
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** An Ed25519 private key whose seed is derived from the pepper for `purpose`. */
export function derivedEd25519Key(pepper: string, purpose: string): KeyObject {
  return createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, derivedKeyBytes(pepper, purpose)]), format: 'der', type: 'pkcs8' });
}
