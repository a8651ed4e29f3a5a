import { useEffect, useRef, type ReactNode, type RefObject } from 'react';

export interface ToastProps {
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}

/** Space kept between a focused control and the toast above which it is scrolled. */
const GAP = 8;

/**
 * A focused control the toast covers is scrolled up above it (WCAG 2.2 2.4.11 Focus Not
 * Obscured): checked once the browser's own scrolling for the focus is done, and again when the
 * page's layout moves (a message appearing above the control when the previous field is left).
 */
function useKeepFocusClear(toast: RefObject<HTMLDivElement | null>, open: boolean) {
  useEffect(() => {
    if (!open) return;
    let frame = 0;
    // A press focuses its control before it ends: scrolling then would move another control
    // under the finger and the press would not count (the click needs down and up on one
    // element). The check waits for the press to end.
    let pressing = false;
    let checkAfterPress = false;
    const check = () => {
      if (pressing) {
        checkAfterPress = true;
        return;
      }
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const focused = document.activeElement;
        const box = toast.current?.getBoundingClientRect();
        if (!box || !(focused instanceof HTMLElement) || focused === document.body || toast.current?.contains(focused)) return;
        const rect = focused.getBoundingClientRect();
        const covered = rect.bottom > box.top - GAP && rect.top < box.bottom;
        if (covered) window.scrollBy({ top: rect.bottom - box.top + GAP });
      });
    };
    // Old browsers (and jsdom) have no ResizeObserver: the focus is still checked.
    const layout = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(check);
    const pressStart = () => {
      pressing = true;
    };
    const pressEnd = () => {
      pressing = false;
      if (checkAfterPress) {
        checkAfterPress = false;
        // After the click event of this press has been dispatched.
        setTimeout(check, 0);
      }
    };
    layout?.observe(document.body);
    document.addEventListener('focusin', check);
    document.addEventListener('pointerdown', pressStart, true);
    document.addEventListener('pointerup', pressEnd, true);
    document.addEventListener('pointercancel', pressEnd, true);
    return () => {
      cancelAnimationFrame(frame);
      layout?.disconnect();
      document.removeEventListener('focusin', check);
      document.removeEventListener('pointerdown', pressStart, true);
      document.removeEventListener('pointerup', pressEnd, true);
      document.removeEventListener('pointercancel', pressEnd, true);
    };
  }, [toast, open]);
}

/**
 * A notice that stays until the applicant closes it (the spec wants no timeout), a polite live
 * region so screen readers read it without interrupting (kept mounted so that its content
 * change is announced). It never hides what the applicant needs: the screen places it right
 * above its main buttons, and it sticks to the bottom of the screen only while that place is
 * below the screen — so the buttons, further down, are never under it — and a focused control
 * it would cover is scrolled above it.
 */
export function Toast({ open, onClose, children }: ToastProps) {
  const toast = useRef<HTMLDivElement>(null);
  useKeepFocusClear(toast, open);
  return (
    <div className="toast-region" role="status">
      {open && (
        <div className="toast" ref={toast}>
          <p className="toast__message">{children}</p>
          <button type="button" className="toast__close" onClick={onClose}>
            閉じる
          </button>
        </div>
      )}
    </div>
  );
}
