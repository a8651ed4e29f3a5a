import { ofetch, FetchError } from 'ofetch';
import { REVISION_HEADER } from '../../domain/revision';
import { SESSION_ACTIVITY_AGE_HEADER } from '../../domain/session-activity';
import { session } from '../platform/session';
import { sessionActivity } from '../platform/sessionActivity';

/** Where a 401 sends the applicant: set by the runtime for the active flow. */
let onUnauthorized: () => void = () => {
  location.assign('/error?id=1');
};
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}
/** For calls made outside ofetch (the document upload uses XMLHttpRequest for its progress). */
export function handleUnauthorized(): void {
  onUnauthorized();
}

/**
 * Calls whose 401 is an answer, not the end of a session: the code check says "wrong code"
 * with it. Any other 401 (a token that expired, or none at all: a step reloaded or reached
 * again after /verification forgot the token) goes to the flow's error page with id=1.
 */
const ANSWERS_WITH_401 = ['/verification-codes/verify', '/verification-codes/resume'];

/** Whether a 401 of this call (its path under /api) ends the session (spec section 8). */
export function endsSession(status: number, path: string): boolean {
  return status === 401 && !ANSWERS_WITH_401.includes(path);
}

/** '/api/verification-codes/verify?x=1' or an absolute URL → '/verification-codes/verify'. */
export function apiPathOf(url: string): string {
  return new URL(url, 'http://localhost').pathname.replace(/^\/api(?=\/)/, '');
}

/** How long ago the server recorded the activity it answers for (0: with this answer). */
export function activityAgeOf(headers: Headers): number {
  const age = Number(headers.get(SESSION_ACTIVITY_AGE_HEADER) ?? 0);
  return Number.isFinite(age) && age > 0 ? age : 0;
}

/**
 * The one HTTP client of the browser. No timeout (the spec sets none: slow mobile networks
 * must still finish). The token rides in the Authorization header; any 401 ends the session.
 */
export const api = ofetch.create({
  baseURL: '/api',
  retry: 0,
  onRequest({ options }) {
    const token = session.get('authenticationToken');
    if (token) {
      const headers = new Headers(options.headers);
      headers.set('Authorization', `Bearer ${token}`);
      // The revision this page read: a step stored since by another device is not overwritten (409).
      const revision = session.get('revision');
      if (revision !== null && options.method?.toUpperCase() === 'POST') headers.set(REVISION_HEADER, revision);
      options.headers = headers;
    }
  },
  onResponse({ options, response }) {
    // The server saw the applicant: their session lasts from now, or from when it last recorded them (see sessionActivity).
    if (new Headers(options.headers).has('Authorization') && response.status !== 401) sessionActivity.touch(Date.now() - activityAgeOf(response.headers));
    const revision = response.headers.get(REVISION_HEADER);
    if (revision !== null && response.ok) session.set('revision', revision);
  },
  onResponseError({ request, response }) {
    const url = typeof request === 'string' ? request : request.url;
    if (endsSession(response.status, apiPathOf(url))) onUnauthorized();
  },
});

/** Status of a failed call, or undefined for a network failure. */
export function statusOf(error: unknown): number | undefined {
  return error instanceof FetchError ? error.statusCode : undefined;
}

/** The Japanese message of a 400 answer, when the server sent one. */
export function messageOf(error: unknown): string | undefined {
  if (!(error instanceof FetchError)) return undefined;
  const data: unknown = error.data;
  if (data && typeof data === 'object' && 'message' in data && typeof data.message === 'string') return data.message;
  return undefined;
}
