import type { Hasher } from '../crypto.js';

/**
 * The PIN's binding (ADR 0016): GET /api/public-key gives it to an application with the key,
 * and the browser encrypts it with the PIN, so a ciphertext captured from one application is
 * refused for another. Signed, not stored: `<issued at, ms in base 36>.<MAC>`, the MAC an HMAC
 * of the application's id and that time under the pepper (the same in every process), valid
 * for BINDING_VALIDITY_MS. Once the PIN is set, pin_set refuses every further one.
 */

/** How long a binding may wait for its PIN: the page is open, the applicant types. */
export const BINDING_VALIDITY_MS = 60 * 60 * 1000;

/**
 * How far ahead of this process's clock a binding's time may be: another process (or machine)
 * may have issued it by a clock that runs a little ahead.
 */
const CLOCK_SKEW_MS = 60 * 1000;

const bindingPattern = /^([0-9a-z]{1,11})\.([0-9a-f]{64})$/;

export function issueBinding(hasher: Pick<Hasher, 'pinBinding'>, applicationId: string, now: Date): string {
  const issuedAt = now.getTime().toString(36);
  return `${issuedAt}.${hasher.pinBinding(applicationId, issuedAt)}`;
}

/** Whether `binding` was issued to this application within BINDING_VALIDITY_MS before `now` (by a clock at most a minute ahead). */
export function isLiveBinding(hasher: Pick<Hasher, 'pinBinding' | 'equal'>, binding: string, applicationId: string, now: Date): boolean {
  const match = bindingPattern.exec(binding);
  if (!match?.[1] || !match[2]) return false;
  const age = now.getTime() - Number.parseInt(match[1], 36);
  if (!(age > -CLOCK_SKEW_MS && age < BINDING_VALIDITY_MS)) return false;
  return hasher.equal(hasher.pinBinding(applicationId, match[1]), match[2]);
}
