import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { EKYC_STATUS, type EkycRefusal, type EkycStatus } from '../../domain/ekyc.js';
import type { EkycProviderName } from '../config.js';
import type { ApplicationType } from '../db/schema.js';
import type { VerificationMethod } from '../../domain/identity-check-methods.js';

/**
 * What the server needs from an identity-check (eKYC) provider, chosen by EKYC_PROVIDER in
 * plugins/ekyc.ts. Two protocols exist: the simulator's (simulator.ts), standing for today's
 * redirect-and-signed-callback provider, and OpenID Connect (oidc.ts, JPKI through the Digital
 * Agency's app, ADR 0035), whose answer comes back through the browser instead of a callback.
 *
 * The life of a check:
 * 1. POST /api/ekyc calls createSession and sends the browser to the returned url.
 * 2. The applicant finishes at the provider, which redirects the browser to returnUrl
 *    (/ekyc-callback, /child/ekyc-callback) and POSTs a signed callback to
 *    /api/ekyc/callback; verifyCallback turns that request into an event (routes/ekyc.ts).
 *    (OpenID Connect: the browser comes back to GET /api/ekyc/oidc/callback, which records the
 *    outcome and then sends it on to returnUrl; verifyCallback refuses everything.)
 * 3. The page polls POST /api/ekyc/status; while the stored status is still pending the
 *    server also asks readStatus, so a lost callback delays nothing.
 */

/** The provider's view of a session, mapped to our numbers by statusOf. */
export type EkycProviderState = 'created' | 'processing' | 'approved' | 'rejected' | 'failed';

export interface EkycProviderStatus {
  state: EkycProviderState;
  /** With 'approved': the bank also wants a current-address document (/supplement). */
  supplement: boolean;
  /**
   * With 'approved': what the provider returned as proof (an OpenID provider's claims, a
   * provider's result document), kept in the verification record; absent, the record keeps
   * the status itself.
   */
  evidence?: Record<string, unknown>;
}

export interface EkycSessionRequest {
  applicationId: string;
  applicationType: ApplicationType;
  /** Absolute URL of the page the provider sends the browser back to. */
  returnUrl: string;
}

export interface EkycSession {
  sessionId: string;
  /** Where the browser goes to do the check (absolute, or a path of this server). */
  url: string;
}

/** One verified callback: the session's new state. */
export interface EkycCallbackEvent extends EkycProviderStatus {
  sessionId: string;
}

export interface EkycProvider {
  readonly name: EkycProviderName;
  /** How this provider checks a person, as the verification records name it (src/domain/identity-check-methods.ts). */
  readonly method: VerificationMethod;
  createSession(request: EkycSessionRequest): Promise<EkycSession>;
  readStatus(sessionId: string): Promise<EkycProviderStatus>;
  /**
   * Why a rejected session was rejected, when the applicant can act on it (the OIDC check: the
   * card's data differ from the entry, in which items); null or absent: a generic failure.
   */
  refusal?(sessionId: string): Promise<EkycRefusal | null>;
  /**
   * Checks a callback request as received (headers and the raw body bytes, before any JSON
   * parsing) and returns its event; throws EkycCallbackError (401 bad signature or time,
   * 400 malformed body) otherwise.
   */
  verifyCallback(headers: IncomingHttpHeaders, rawBody: Buffer): EkycCallbackEvent;
}

export class EkycCallbackError extends Error {
  constructor(
    readonly statusCode: 400 | 401,
    reason: string,
  ) {
    super(reason);
    this.name = 'EkycCallbackError';
  }
}

/** Provider state -> status number of POST /api/ekyc/status (src/domain/ekyc.ts). */
export function statusOf(state: EkycProviderState): EkycStatus {
  switch (state) {
    case 'created':
      return EKYC_STATUS.created;
    case 'processing':
      return EKYC_STATUS.providerProcessing;
    case 'approved':
      return EKYC_STATUS.bankerProcessing;
    case 'rejected':
      return EKYC_STATUS.rejected;
    case 'failed':
      return EKYC_STATUS.failed;
  }
}

// ---------------------------------------------------------------------------------------
// Signed callbacks. The scheme the simulator uses and a real provider is asked to use (or its
// adapter translates from its own):
//
//   X-Ekyc-Timestamp: <Unix time in seconds when the provider sent the request>
//   X-Ekyc-Signature: <hex HMAC-SHA256 keyed with EKYC_CALLBACK_SECRET over
//                      "<timestamp>.<raw body bytes>">
//   body: {"sessionId": "...", "state": "approved", "supplement": false}
//
// The timestamp is inside the signed text, so an old callback cannot be replayed with a new
// time; one older or newer than CALLBACK_TOLERANCE_SECONDS is refused. Within the tolerance a
// replay repeats a state the session already has (a decided session never changes again).
// ---------------------------------------------------------------------------------------

export const SIGNATURE_HEADER = 'x-ekyc-signature';
export const TIMESTAMP_HEADER = 'x-ekyc-timestamp';
export const CALLBACK_TOLERANCE_SECONDS = 300;

const providerStates: readonly EkycProviderState[] = ['created', 'processing', 'approved', 'rejected', 'failed'];

export function signCallback(secret: string, timestamp: number, rawBody: Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Throws EkycCallbackError(401) unless the headers sign this body with `secret`, recently. */
export function verifySignature(secret: string, headers: IncomingHttpHeaders, rawBody: Buffer, now: Date): void {
  const timestampText = header(headers, TIMESTAMP_HEADER) ?? '';
  const signature = header(headers, SIGNATURE_HEADER) ?? '';
  if (!/^\d{1,12}$/.test(timestampText) || !/^[0-9a-f]{64}$/i.test(signature)) {
    throw new EkycCallbackError(401, 'missing or malformed signature headers');
  }
  const timestamp = Number(timestampText);
  const expected = Buffer.from(signCallback(secret, timestamp, rawBody), 'hex');
  // Both 32 bytes (the pattern above), as timingSafeEqual requires; compared in constant time.
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) {
    throw new EkycCallbackError(401, 'signature mismatch');
  }
  if (Math.abs(now.getTime() / 1000 - timestamp) > CALLBACK_TOLERANCE_SECONDS) {
    throw new EkycCallbackError(401, 'timestamp outside the tolerance');
  }
}

/** The event of a verified body; EkycCallbackError(400) when it is not one. */
export function parseCallbackBody(rawBody: Buffer): EkycCallbackEvent {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new EkycCallbackError(400, 'body is not JSON');
  }
  if (typeof body !== 'object' || body === null) throw new EkycCallbackError(400, 'body is not an object');
  const { sessionId, state, supplement } = body as Record<string, unknown>;
  const known = providerStates.find((candidate) => candidate === state);
  if (typeof sessionId !== 'string' || sessionId.length === 0 || sessionId.length > 100 || !known) {
    throw new EkycCallbackError(400, 'sessionId or state missing');
  }
  if (supplement !== undefined && typeof supplement !== 'boolean') throw new EkycCallbackError(400, 'supplement is not a boolean');
  return { sessionId, state: known, supplement: supplement === true && known === 'approved' };
}

/** The headers and body a provider sends for an event (the simulator; tests). */
export function signedCallback(
  secret: string,
  event: EkycCallbackEvent,
  now: Date,
): { headers: Record<string, string>; rawBody: Buffer } {
  const rawBody = Buffer.from(JSON.stringify(event), 'utf8');
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    headers: {
      'content-type': 'application/json',
      [TIMESTAMP_HEADER]: String(timestamp),
      [SIGNATURE_HEADER]: signCallback(secret, timestamp, rawBody),
    },
    rawBody,
  };
}
