import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../src/client/api/client';
import { session } from '../../src/client/platform/session';
import { REVISION_HEADER } from '../../src/domain/revision';
import { requestOf } from './fixtures';

/**
 * The page's half of the two-device rule (ADR 0030): the revision the server answers with is
 * kept, and sent back with each POST, so a step from a page older than the stored answers is
 * refused by the server instead of overwriting them.
 */
describe('the application revision in the browser', () => {
  const sent: Array<{ route: string; revision: string | null }> = [];
  beforeEach(() => {
    sessionStorage.clear();
    sent.length = 0;
    session.set('authenticationToken', 'a'.repeat(43));
    let stored = 3;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const { route } = requestOf(input, init);
        const headers = new Headers(input instanceof Request ? input.headers : init?.headers);
        sent.push({ route, revision: headers.get(REVISION_HEADER) });
        if (route === 'POST /api/applications/branch') stored += 1;
        return new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json', [REVISION_HEADER]: String(stored) } });
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends back with each POST the revision last read or written, never with a GET', async () => {
    await api('/applications');
    await api('/applications/branch', { method: 'POST', body: { branchCode: '001' } });
    await api('/applications/branch', { method: 'POST', body: { branchCode: '101' } });
    expect(sent).toEqual([
      { route: 'GET /api/applications', revision: null },
      { route: 'POST /api/applications/branch', revision: '3' },
      { route: 'POST /api/applications/branch', revision: '4' },
    ]);
  });

  it('sends none before the page has read one (a fresh session)', async () => {
    await api('/applications/branch', { method: 'POST', body: { branchCode: '001' } });
    expect(sent[0]?.revision).toBeNull();
  });
});
