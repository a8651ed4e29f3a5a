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
 * Obscured), once the browser's own scrolling for the focus is done.
 */
function useKeepFocusClear(toast: RefObject<HTMLDivElement | null>, open: boolean) {
  useEffect(() => {
    if (!open) return;
    let frame = 0;
    const onFocusIn = (event: FocusEvent) => {
      const target = event.target;
      if (!(target instanceof HTMLElement)) return;
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const box = toast.current?.getBoundingClientRect();
        if (!box || toast.current?.contains(target)) return;
        const rect = target.getBoundingClientRect();
        const covered = rect.bottom > box.top - GAP && rect.top < box.bottom;
        if (covered) window.scrollBy({ top: rect.bottom - box.top + GAP });
      });
    };
    document.addEventListener('focusin', onFocusIn);
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener('focusin', onFocusIn);
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
