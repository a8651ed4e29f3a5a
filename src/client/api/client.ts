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
/** For calls made outside api() (the document upload uses XMLHttpRequest for its progress). */
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

/** How long ago the server recorded the activity it answers for (0: with this answer). */
export function activityAgeOf(headers: Headers): number {
  const age = Number(headers.get(SESSION_ACTIVITY_AGE_HEADER) ?? 0);
  return Number.isFinite(age) && age > 0 ? age : 0;
}

/** A call the server answered with an error status: the status and the answer's JSON, if any. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly data: unknown,
    path: string,
  ) {
    super(`${path} answered ${statusCode}`);
    this.name = 'ApiError';
  }
}

export interface ApiOptions {
  method?: 'GET' | 'POST';
  /** Sent as JSON. */
  body?: unknown;
  query?: Record<string, string>;
  signal?: AbortSignal;
}

/** The headers of a call: the token in Authorization and, on a POST, the revision this page read. */
function requestHeaders(method: string, hasBody: boolean): Headers {
  const headers = new Headers({ Accept: 'application/json' });
  if (hasBody) headers.set('Content-Type', 'application/json');
  const token = session.get('authenticationToken');
  if (token) {
    headers.set('Authorization', `Bearer ${token}`);
    // A step stored since by another device is not overwritten (409).
    const revision = session.get('revision');
    if (revision !== null && method === 'POST') headers.set(REVISION_HEADER, revision);
  }
  return headers;
}

/** The answer's JSON; undefined for an empty or non-JSON answer (a 204, a proxy's error page). */
async function answerOf(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text || !(response.headers.get('content-type') ?? '').includes('json')) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The one HTTP client of the browser, on the platform's fetch (ofetch cost /term 2.8 KB of its
 * JavaScript on the wire, about 3 %). No timeout (the spec sets none: slow mobile networks must still
 * finish) and no retry. The token rides in the Authorization header; any 401 ends the session
 * but for the calls that answer with it. A network failure throws fetch's own error.
 */
export async function api<T = unknown>(path: string, options: ApiOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
  const headers = requestHeaders(method, options.body !== undefined);
  const response = await fetch(`/api${path}${query}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  // The server saw the applicant: their session lasts from now, or from when it last recorded them (see sessionActivity).
  if (headers.has('Authorization') && response.status !== 401) sessionActivity.touch(Date.now() - activityAgeOf(response.headers));
  const data = await answerOf(response);
  if (!response.ok) {
    if (endsSession(response.status, path)) onUnauthorized();
    throw new ApiError(response.status, data, path);
  }
  const revision = response.headers.get(REVISION_HEADER);
  if (revision !== null) session.set('revision', revision);
  return data as T;
}

/** Status of a failed call, or undefined for a network failure. */
export function statusOf(error: unknown): number | undefined {
  return error instanceof ApiError ? error.statusCode : undefined;
}

/** The Japanese message of a 400 answer, when the server sent one. */
export function messageOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const data: unknown = error.data;
  if (data && typeof data === 'object' && 'message' in data && typeof data.message === 'string') return data.message;
  return undefined;
}
