import { useEffect, useState, useSyncExternalStore } from 'react';
import type { ClientSettings } from '../../domain/bank/types';
import { api, handleUnauthorized } from '../api/client';
import { session } from '../platform/session';
import { sessionActivity } from '../platform/sessionActivity';
import { Button } from '../ui/Button';
import { Modal } from '../ui/Modal';

/** 1 分 30 秒 (a whole minute without its seconds, seconds alone under a minute). */
export function remainingText(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (minutes === 0) return `${rest}秒`;
  return rest === 0 ? `${minutes}分` : `${minutes}分${rest}秒`;
}

/** The current time, again every second while `ticking`. */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [ticking]);
  return now;
}

/** Whether `at` has come, re-rendering when it does. */
function useReached(at: number | null): boolean {
  const [reached, setReached] = useState(false);
  useEffect(() => {
    if (at === null) {
      setReached(false);
      return;
    }
    const wait = at - Date.now();
    setReached(wait <= 0);
    if (wait <= 0) return;
    const timer = window.setTimeout(() => setReached(true), wait);
    return () => window.clearTimeout(timer);
  }, [at]);
  return reached;
}

/**
 * The warning before a session ends for want of activity (WCAG 2.2.1 Timing Adjustable):
 * `warningMs` before the end, a dialog says how long is left and offers 「延長する」, which asks
 * the server to extend the session (as often as the applicant likes, within its 12 hours); what
 * is typed stays on the page behind it. At the end the applicant goes to the session error page,
 * as after any call the server refuses. Only while a session is open (a token is kept).
 */
export function SessionTimeoutWarning({ timings }: { timings: ClientSettings['session'] }) {
  const lastAt = useSyncExternalStore(sessionActivity.subscribe, sessionActivity.lastAt);
  const open = lastAt !== null && session.get('authenticationToken') !== null;
  const endAt = open ? lastAt + timings.idleMs : null;
  const warned = useReached(endAt === null ? null : endAt - timings.warningMs);
  const ended = useReached(endAt);
  const now = useNow(warned);
  const [extending, setExtending] = useState(false);

  useEffect(() => {
    if (ended) handleUnauthorized();
  }, [ended]);

  const extend = async () => {
    setExtending(true);
    try {
      // A refused extension (the session ended meanwhile) goes to the error page through the client's 401 handling.
      await api('/session/extend', { method: 'POST' });
    } catch {
      // Any other failure: the dialog stays, and the applicant may try again.
    } finally {
      setExtending(false);
    }
  };

  if (!warned || ended || endAt === null) return null;
  return (
    <Modal
      open
      alert
      tone="warning"
      title="まもなく有効期限が切れます"
      actions={
        <Button loading={extending} onClick={() => void extend()}>
          延長する
        </Button>
      }
    >
      <p>
        一定時間操作がなかったため、あと<span role="timer">{remainingText(endAt - now)}</span>
        でお手続きの有効期限が切れます。続けてお手続きされる場合は「延長する」を押してください。入力中の内容はそのまま残ります。
      </p>
    </Modal>
  );
}
