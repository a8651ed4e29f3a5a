import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readApplication, rememberStepAnswer, type ApplicationsAnswer } from '../../src/client/api/application';
import { activityAgeOf, api } from '../../src/client/api/client';
import { session } from '../../src/client/platform/session';
import { sessionActivity } from '../../src/client/platform/sessionActivity';
import { SESSION_ACTIVITY_AGE_HEADER } from '../../src/domain/session-activity';
import { requestOf } from './fixtures';

/**
 * ADR 0042 in the browser: the page after a stored step opens with the step's answer instead
 * of asking GET /api/applications again, and a lookup answered from the server's memory of
 * the session counts the session's end from when the server recorded the activity.
 */
describe('what a page opens with after a stored step', () => {
  const sent: string[] = [];
  const read: ApplicationsAnswer = { application: { branchCode: '101' }, applicationParent: null, forms: { branch: { branchCode: '101' } } };
  const stepAnswer: ApplicationsAnswer = { application: { branchCode: '201' }, applicationParent: null, forms: { branch: { branchCode: '201' } } };
  beforeEach(() => {
    sessionStorage.clear();
    sent.length = 0;
    session.set('authenticationToken', 'a'.repeat(43));
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        sent.push(requestOf(input, init).route);
        return new Response(JSON.stringify(read), { status: 200, headers: { 'Content-Type': 'application/json', [SESSION_ACTIVITY_AGE_HEADER]: '5000' } });
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('takes the answer of the step just stored once, then reads again', async () => {
    rememberStepAnswer(stepAnswer);
    expect(await readApplication()).toEqual(stepAnswer);
    expect(sent).toEqual([]);
    expect(await readApplication()).toEqual(read);
    expect(sent).toEqual(['GET /api/applications']);
  });

  it('never takes an answer stored under another session', async () => {
    rememberStepAnswer(stepAnswer);
    session.set('authenticationToken', 'b'.repeat(43));
    expect(await readApplication()).toEqual(read);
    expect(sent).toEqual(['GET /api/applications']);
  });

  it('counts the session from when the server recorded the activity', async () => {
    const before = Date.now();
    await api('/branch');
    const lastAt = sessionActivity.lastAt() ?? 0;
    expect(lastAt).toBeLessThanOrEqual(Date.now() - 5000);
    expect(lastAt).toBeGreaterThanOrEqual(before - 5000);
    expect(activityAgeOf(new Headers())).toBe(0);
    expect(activityAgeOf(new Headers({ [SESSION_ACTIVITY_AGE_HEADER]: 'soon' }))).toBe(0);
    expect(activityAgeOf(new Headers({ [SESSION_ACTIVITY_AGE_HEADER]: '-3' }))).toBe(0);
  });
});
