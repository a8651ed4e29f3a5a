import type { ReactNode } from 'react';

export interface ToastProps {
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}

/**
 * A notice at the bottom of the screen. It stays until the applicant closes it (the spec wants
 * no timeout), and is a polite live region so screen readers read it without interrupting.
 * The live region stays mounted so that its content change is announced.
 */
export function Toast({ open, onClose, children }: ToastProps) {
  return (
    <div className="toast-region" role="status">
      {open && (
        <div className="toast">
          <p className="toast__message">{children}</p>
          <button type="button" className="toast__close" onClick={onClose}>
            閉じる
          </button>
        </div>
      )}
    </div>
  );
}
