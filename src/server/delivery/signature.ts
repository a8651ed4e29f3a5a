import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { derivedEd25519Key } from '../crypto.js';

/**
 * The signature of a hand-off (ADR 0033): Ed25519 over `<timestamp>.<body bytes>`, the way the
 * eKYC provider signs its callbacks to us, but with our private key: the bank verifies with
 * our public key and cannot make a message that passes as ours, and no secret is shared.
 */

export const TIMESTAMP_HEADER = 'x-delivery-timestamp';
export const SIGNATURE_HEADER = 'x-delivery-signature';
export const KEY_ID_HEADER = 'x-delivery-key-id';
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** A receiver refuses a message signed longer ago than this (a replayed old message). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** Names the key, for a bank that holds our old and new public key while we rotate. */
  keyId: string;
}

function signingKey(privateKey: KeyObject): SigningKey {
  const publicKey = createPublicKey(privateKey);
  const keyId = createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('hex').slice(0, 16);
  return { privateKey, publicKey, keyId };
}

/** The key of a PEM file (production: DELIVERY_SIGNING_KEY_FILE); it must be Ed25519. */
export function signingKeyFromPem(pem: string): SigningKey {
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('DELIVERY_SIGNING_KEY_FILE must hold an Ed25519 private key');
  return signingKey(privateKey);
}

/** Outside production without a key file: a key derived from the server's pepper, stable across restarts. */
export function signingKeyFromPepper(pepper: string): SigningKey {
  return signingKey(derivedEd25519Key(pepper, 'kouza bank delivery signing key'));
}

function signed(timestamp: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${timestamp}.`), body]);
}

/** The signature headers of `body`, signed at `now`. */
export function signatureHeaders(key: SigningKey, body: Buffer, now: Date): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  return {
    [TIMESTAMP_HEADER]: timestamp,
    [SIGNATURE_HEADER]: sign(null, signed(timestamp, body), key.privateKey).toString('base64url'),
    [KEY_ID_HEADER]: key.keyId,
  };
}

function header(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/**
 * What a receiver checks (the bank, in its own language; the development receiver, here):
 * the signature over the timestamp and the raw body, with our public key, and the timestamp
 * within the tolerance. Returns why not, or null.
 */
export function signatureProblem(publicKey: KeyObject, headers: IncomingHttpHeaders, body: Buffer, now: Date): string | null {
  const timestamp = header(headers, TIMESTAMP_HEADER);
  const signature = header(headers, SIGNATURE_HEADER);
  if (!/^\d{1,12}$/.test(timestamp) || !/^[A-Za-z0-9_-]{86}$/.test(signature)) return 'missing or malformed signature headers';
  if (!verify(null, signed(timestamp, body), publicKey, Buffer.from(signature, 'base64url'))) return 'signature does not match';
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > SIGNATURE_TOLERANCE_SECONDS) return 'timestamp outside the tolerance';
  return null;
}
