import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { api, statusOf } from '../../api/client';
import { checkBrowser } from '../../platform/browserSupport';

/** Answer of GET /api/maintenance (404 = no maintenance planned). */
export interface MaintenanceWindow {
  startedAt: string;
  endedAt: string;
}

/** Answer of GET /api/notifications/{bankCode}. */
export interface NotificationList {
  notificationList: Array<{ contents: string }>;
}

/** The one modal the landing page shows, chosen by the precedence of spec section 4. */
export type LandingModal =
  | { kind: 'maintenance'; startedAt: Date; endedAt: Date }
  | { kind: 'inAppBrowser' }
  | { kind: 'notPhone' }
  | { kind: 'notifications'; contents: string[] };

export interface LandingChecksOptions {
  bankCode: string;
  /** Where a failed maintenance or notification call sends the applicant (/error or /child/error). */
  errorPath: string;
  /** Defaults to navigator.userAgent. */
  userAgent?: string;
}

export interface LandingChecks {
  /** Undefined while the checks run; null when there is nothing to show. */
  modal: LandingModal | null | undefined;
  dismiss: () => void;
}

function activeWindow(window: MaintenanceWindow | undefined, now: Date): { startedAt: Date; endedAt: Date } | null {
  if (!window) return null;
  const startedAt = new Date(window.startedAt);
  const endedAt = new Date(window.endedAt);
  if (Number.isNaN(startedAt.getTime()) || Number.isNaN(endedAt.getTime())) return null;
  return startedAt <= now && now <= endedAt ? { startedAt, endedAt } : null;
}

/** Loads something that may legitimately be absent: 404 gives undefined, other failures throw. */
async function optional<T>(path: string): Promise<T | undefined> {
  try {
    return await api<T>(path);
  } catch (error) {
    if (statusOf(error) === 404) return undefined;
    throw error;
  }
}

/**
 * The landing checks of spec section 4: maintenance first (an active window wins), then browser
 * support, then the bank's notifications. Any failure other than 404 leaves for the error page.
 * Shared by the general landing page and the child before-check.
 */
export function useLandingChecks({ bankCode, errorPath, userAgent }: LandingChecksOptions): LandingChecks {
  const navigate = useNavigate();
  const [modal, setModal] = useState<LandingModal | null | undefined>(undefined);

  useEffect(() => {
    // StrictMode mounts twice and the page may be left early: ignore answers of a stale run.
    let current = true;
    const run = async (): Promise<LandingModal | null> => {
      const maintenance = activeWindow(await optional<MaintenanceWindow>('/maintenance'), new Date());
      if (maintenance) return { kind: 'maintenance', ...maintenance };
      const support = checkBrowser(userAgent ?? navigator.userAgent);
      if (support !== 'supported') return { kind: support };
      const answer = await optional<NotificationList>(`/notifications/${encodeURIComponent(bankCode)}`);
      const contents = (answer?.notificationList ?? []).map((item) => item.contents).filter((text) => text.trim() !== '');
      return contents.length > 0 ? { kind: 'notifications', contents } : null;
    };
    run().then(
      (result) => {
        if (current) setModal(result);
      },
      () => {
        if (current) navigate(errorPath, { replace: true });
      },
    );
    return () => {
      current = false;
    };
  }, [bankCode, errorPath, userAgent, navigate]);

  return { modal, dismiss: () => setModal(null) };
}
