import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, messageOf, statusOf } from '../../src/client/api/client';
import { REVISION_HEADER } from '../../src/domain/revision';
import { session } from '../../src/client/platform/session';

/** Stubs fetch with one answer and keeps what it was asked. */
function answering(response: () => Response) {
  const asked: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      asked.push({ url, init });
      return response();
    }),
  );
  return asked;
}

const jsonAnswer = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers } });

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe("the browser's HTTP client (src/client/api/client.ts)", () => {
  it('calls under /api with the query encoded and reads the JSON answer', async () => {
    const asked = answering(() => jsonAnswer({ kana: 'ヤマダ' }));
    await expect(api<{ kana: string }>('/furigana', { query: { kanji: '山田 太郎&' } })).resolves.toEqual({ kana: 'ヤマダ' });
    expect(asked[0]?.url).toBe('/api/furigana?kanji=%E5%B1%B1%E7%94%B0+%E5%A4%AA%E9%83%8E%26');
    expect(asked[0]?.init.method).toBe('GET');
    expect(asked[0]?.init.body).toBeUndefined();
  });

  it('sends a body as JSON, with the token and, on a POST, the revision the page read', async () => {
    session.set('authenticationToken', 'token-1');
    session.set('revision', '7');
    const asked = answering(() => jsonAnswer({}, 200, { [REVISION_HEADER]: '8' }));
    await api('/applications/branch', { method: 'POST', body: { branchCode: '001' } });
    const headers = new Headers(asked[0]?.init.headers);
    expect(asked[0]?.init.body).toBe('{"branchCode":"001"}');
    expect(headers.get('content-type')).toBe('application/json');
    expect(headers.get('authorization')).toBe('Bearer token-1');
    expect(headers.get(REVISION_HEADER)).toBe('7');
    // The answer's revision is the one the next POST sends.
    expect(session.get('revision')).toBe('8');
  });

  it('answers undefined for an empty answer', async () => {
    answering(() => new Response(null, { status: 204 }));
    await expect(api('/session/extend', { method: 'POST' })).resolves.toBeUndefined();
  });

  it("throws an ApiError with the status and the server's Japanese message", async () => {
    answering(() => jsonAnswer({ message: '入力内容をご確認ください。', errors: [] }, 400));
    const error: unknown = await api('/applications/personal', { method: 'POST', body: {} }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(statusOf(error)).toBe(400);
    expect(messageOf(error)).toBe('入力内容をご確認ください。');
  });

  it('throws an ApiError without data for an answer that is not JSON (a proxy error page)', async () => {
    answering(() => new Response('<html>Bad Gateway</html>', { status: 502, headers: { 'Content-Type': 'text/html' } }));
    const error: unknown = await api('/applications').catch((caught: unknown) => caught);
    expect(statusOf(error)).toBe(502);
    expect(messageOf(error)).toBeUndefined();
  });

  it('leaves a network failure as it is: no status', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    const error: unknown = await api('/applications').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect(statusOf(error)).toBeUndefined();
  });
});
