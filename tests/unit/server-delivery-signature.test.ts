import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signatureHeaders, signatureProblem, signingKeyFromPem, signingKeyFromPepper } from '../../src/server/delivery/signature.js';

const body = Buffer.from(JSON.stringify({ applicationId: 'a', answers: { personal: { kanaLastName: 'ﾔﾏﾀﾞ' } } }));
const now = new Date('2026-11-26T00:00:00Z');

describe('the hand-off signature (ADR 0033)', () => {
  const key = signingKeyFromPepper('a'.repeat(43));

  it('verifies with our public key, as signed', () => {
    expect(signatureProblem(key.publicKey, signatureHeaders(key, body, now), body, now)).toBeNull();
  });

  it('refuses a changed body, another key, an old timestamp and missing headers', () => {
    const headers = signatureHeaders(key, body, now);
    expect(signatureProblem(key.publicKey, headers, Buffer.from(body.toString().replace('ﾔ', 'ﾕ')), now)).toBe('signature does not match');
    expect(signatureProblem(signingKeyFromPepper('b'.repeat(43)).publicKey, headers, body, now)).toBe('signature does not match');
    expect(signatureProblem(key.publicKey, headers, body, new Date(now.getTime() + 301_000))).toBe('timestamp outside the tolerance');
    expect(signatureProblem(key.publicKey, { ...headers, 'x-delivery-timestamp': String(Number(headers['x-delivery-timestamp']) + 1) }, body, now)).toBe('signature does not match');
    expect(signatureProblem(key.publicKey, {}, body, now)).toBe('missing or malformed signature headers');
  });

  it('derives the same key from the same pepper (restarts keep it), and names it', () => {
    expect(signingKeyFromPepper('a'.repeat(43)).keyId).toBe(key.keyId);
    expect(key.keyId).toMatch(/^[0-9a-f]{16}$/);
  });

  it('takes an Ed25519 PEM file and refuses any other key type', () => {
    const ed = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(signingKeyFromPem(ed).privateKey.asymmetricKeyType).toBe('ed25519');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => signingKeyFromPem(rsa)).toThrow('Ed25519');
  });
});
