import { describe, expect, it } from 'vitest';
import { createHasher } from '../../src/server/crypto.js';
import { BINDING_VALIDITY_MS, isLiveBinding, issueBinding } from '../../src/server/pin/binding.js';

/** The PIN binding signed for its application (pin/binding.ts, ADR 0016). */
describe('the PIN binding', () => {
  const hasher = createHasher('dGVzdCBwZXBwZXIgb2YgdGhpcnR5LXR3byBieXRlcyE');
  const application = '5f0c6a52-8a8e-4d59-9d59-2f1d1f7f3b11';
  const other = '0b9d5c1e-2c7a-4a47-8e0e-6b8f6f4a2d22';
  const issuedAt = new Date('2026-11-26T10:00:00Z');
  const later = (ms: number) => new Date(issuedAt.getTime() + ms);

  it('is live for its application until its hour is out, and for no other', () => {
    const binding = issueBinding(hasher, application, issuedAt);
    expect(isLiveBinding(hasher, binding, application, issuedAt)).toBe(true);
    expect(isLiveBinding(hasher, binding, application, later(BINDING_VALIDITY_MS - 1))).toBe(true);
    expect(isLiveBinding(hasher, binding, application, later(BINDING_VALIDITY_MS))).toBe(false);
    expect(isLiveBinding(hasher, binding, other, issuedAt)).toBe(false);
  });

  it('takes a binding from a clock up to a minute ahead, not more', () => {
    const binding = issueBinding(hasher, application, issuedAt);
    expect(isLiveBinding(hasher, binding, application, later(-59_000))).toBe(true);
    expect(isLiveBinding(hasher, binding, application, later(-61_000))).toBe(false);
  });

  it('is refused when its time or its MAC is altered, or under another pepper', () => {
    const binding = issueBinding(hasher, application, issuedAt);
    const [time, mac] = binding.split('.') as [string, string];
    const earlier = (Number.parseInt(time, 36) - 1000).toString(36);
    expect(isLiveBinding(hasher, `${earlier}.${mac}`, application, issuedAt)).toBe(false);
    expect(isLiveBinding(hasher, `${time}.${mac.replace(/^./, (first) => (first === '0' ? '1' : '0'))}`, application, issuedAt)).toBe(false);
    expect(isLiveBinding(createHasher('YW5vdGhlciBwZXBwZXIgb2YgdGhpcnR5LXR3byBieXRlcw'), binding, application, issuedAt)).toBe(false);
    for (const malformed of ['', time, `${time}.`, `${time}.${mac}x`, `-1.${mac}`, 'x'.repeat(43)]) {
      expect(isLiveBinding(hasher, malformed, application, issuedAt)).toBe(false);
    }
  });
});
