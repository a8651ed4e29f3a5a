import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setUnauthorizedHandler } from '../../src/client/api/client';
import { sessionActivity } from '../../src/client/platform/sessionActivity';
import { remainingText, SessionTimeoutWarning } from '../../src/client/runtime/SessionTimeoutWarning';
import { requestOf } from './fixtures';

/** A one-minute session warned 20 seconds before its end (the real one: 30 minutes, 2 minutes). */
const TIMINGS = { idleMs: 60_000, warningMs: 20_000 };

const advance = async (ms: number) => {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
};

describe('the warning before the session ends (WCAG 2.2.1)', () => {
  let expired: ReturnType<typeof vi.fn<() => void>>;
  let extensions: number;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'Date'] });
    sessionStorage.setItem('authenticationToken', 'token');
    expired = vi.fn<() => void>();
    setUnauthorizedHandler(expired);
    extensions = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const { route } = requestOf(input, init);
        if (route === 'POST /api/session/extend') {
          extensions += 1;
          return new Response(null, { status: 204 });
        }
        return new Response('{}', { status: 404 });
      }),
    );
    sessionActivity.touch();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('says how long is left before the end, and 延長する extends it as often as asked', async () => {
    render(<SessionTimeoutWarning timings={TIMINGS} />);
    await advance(39_000);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await advance(1_000);
    const dialog = screen.getByRole('alertdialog', { name: 'まもなく有効期限が切れます' });
    expect(dialog.textContent).toContain('あと20秒でお手続きの有効期限が切れます');
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.activeElement).toBe(dialog);
    await advance(5_000);
    expect(dialog.textContent).toContain('あと15秒');

    for (let time = 1; time <= 10; time += 1) {
      fireEvent.click(screen.getByRole('button', { name: '延長する' }));
      // The extension's answer comes back (fetch is stubbed; the fake clock must move for it to land).
      await advance(10);
      expect(screen.queryByRole('alertdialog')).toBeNull();
      await advance(45_000);
      expect(screen.getByRole('alertdialog')).toBeTruthy();
    }
    expect(extensions).toBe(10);
    expect(expired).not.toHaveBeenCalled();
  });

  it('sends the applicant to the session error page when the time runs out', async () => {
    render(<SessionTimeoutWarning timings={TIMINGS} />);
    await advance(59_000);
    expect(expired).not.toHaveBeenCalled();
    await advance(1_000);
    expect(expired).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('says nothing without a session (no token kept)', async () => {
    sessionStorage.clear();
    render(<SessionTimeoutWarning timings={TIMINGS} />);
    await advance(61_000);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(expired).not.toHaveBeenCalled();
  });
});

describe('remainingText', () => {
  it.each([
    [120_000, '2分'],
    [90_000, '1分30秒'],
    [59_001, '1分'],
    [20_000, '20秒'],
    [0, '0秒'],
  ])('%i ms → %s', (ms, text) => {
    expect(remainingText(ms)).toBe(text);
  });
});
