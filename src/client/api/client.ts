import { ofetch, FetchError } from 'ofetch';
import { session } from '../platform/session';

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
      options.headers = headers;
    }
  },
  onResponseError({ response, options }) {
    // Only an authenticated call can time out a session; the code check answers 401 for a wrong code.
    if (response.status === 401 && new Headers(options.headers).has('Authorization')) onUnauthorized();
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
