import { cookies, session } from './session';

/**
 * Query parameters accepted on the landing page (spec section 2 "Landing / term page" and
 * section 9). A value that breaks its limit is dropped silently, never shortened.
 */
export interface LandingParams {
  channel?: string;
  deviceId?: string;
  workplace?: string;
  invitation?: string;
}

export const LANDING_LIMITS = { channel: 20, workplace: 8, invitation: 6 } as const;

const DEVICE_ID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** Length in characters (code points), so that a surrogate pair counts once. */
function length(value: string): number {
  return [...value].length;
}

function upTo(value: string | null, max: number): string | undefined {
  if (value === null || value === '') return undefined;
  return length(value) <= max ? value : undefined;
}

/** Reads the landing parameters from a query string ("?a=b" or "a=b"). Pure. */
export function parseLandingParams(search: string): LandingParams {
  const query = new URLSearchParams(search);
  const params: LandingParams = {};
  const channel = upTo(query.get('channel'), LANDING_LIMITS.channel);
  if (channel !== undefined) params.channel = channel;
  const deviceId = query.get('deviceId');
  if (deviceId !== null && DEVICE_ID.test(deviceId)) params.deviceId = deviceId;
  const workplace = upTo(query.get('workplace'), LANDING_LIMITS.workplace);
  if (workplace !== undefined) params.workplace = workplace;
  const invitation = upTo(query.get('invitation'), LANDING_LIMITS.invitation);
  if (invitation !== undefined) params.invitation = invitation;
  return params;
}

/**
 * Keeps the landing parameters: channel and device id for this tab (session storage), the
 * workplace and invitation codes for 7 days (cookies), so that they still apply when the
 * applicant comes back later. Absent parameters leave earlier values untouched.
 * Call it after the landing page's entry action has cleared session storage.
 */
export function applyLandingParams(params: LandingParams): void {
  if (params.channel !== undefined) session.set('channel', params.channel);
  if (params.deviceId !== undefined) session.set('deviceId', params.deviceId);
  if (params.workplace !== undefined) cookies.set('workplace', params.workplace);
  if (params.invitation !== undefined) cookies.set('invitation', params.invitation);
}
