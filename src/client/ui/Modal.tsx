import { useEffect, useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

export interface ModalProps {
  open: boolean;
  title: ReactNode;
  children: ReactNode;
  /** Buttons or links at the bottom of the dialog. */
  actions?: ReactNode;
  /** Whether Escape may close the dialog. A blocking notice (maintenance) is not closable. */
  closable?: boolean;
  onClose?: () => void;
  /** Visual tone of the title bar. */
  tone?: 'info' | 'warning';
  /** A warning that needs an answer (role alertdialog): screen readers read its text as it opens. */
  alert?: boolean;
}

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

/**
 * An accessible modal dialog: role="dialog" with aria-modal, named by its title; focus moves
 * into it on open, Tab and Shift+Tab cycle inside it, the rest of the page is made inert and
 * hidden from assistive technology while it is open, and focus returns where it was on close.
 *
 * A div is used rather than the native <dialog> with showModal(): jsdom (our component-test
 * DOM) does not implement showModal(), and the behaviour below is the same in every browser.
 */
export function Modal({ open, title, children, actions, closable = false, onClose, tone = 'info', alert = false }: ModalProps) {
  const titleId = useId();
  const bodyId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const closableRef = useRef(closable);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    closableRef.current = closable;
    onCloseRef.current = onClose;
  });

  // A layout effect: the page is inert and the focus inside the dialog in the same commit that
  // shows it, so neither a quick tap nor a screen reader ever meets an open dialog without focus.
  useLayoutEffect(() => {
    if (!open) return;
    const dialog = dialogRef.current;
    if (!dialog) return;
    const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null;

    // Make everything outside the dialog's portal host inert and hidden while it is open.
    const host = dialog.closest('.modal-host');
    const siblings = Array.from(document.body.children).filter(
      (el): el is HTMLElement => el instanceof HTMLElement && el !== host && !el.hasAttribute('inert'),
    );
    const previousAriaHidden = siblings.map((el) => el.getAttribute('aria-hidden'));
    for (const el of siblings) {
      el.setAttribute('inert', '');
      el.setAttribute('aria-hidden', 'true');
    }
    document.body.classList.add('modal-open');
    dialog.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        if (closableRef.current && onCloseRef.current) {
          event.preventDefault();
          onCloseRef.current();
        }
        return;
      }
      if (event.key !== 'Tab') return;
      const focusable = Array.from(dialog.querySelectorAll<HTMLElement>(FOCUSABLE));
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (!first || !last) {
        event.preventDefault();
        dialog.focus();
        return;
      }
      const active = document.activeElement;
      if (event.shiftKey && (active === first || active === dialog)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && active === last) {
        event.preventDefault();
        first.focus();
      } else if (!dialog.contains(active)) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);

    return () => {
      document.removeEventListener('keydown', onKeyDown);
      siblings.forEach((el, index) => {
        el.removeAttribute('inert');
        const before = previousAriaHidden[index];
        if (before === null || before === undefined) el.removeAttribute('aria-hidden');
        else el.setAttribute('aria-hidden', before);
      });
      document.body.classList.remove('modal-open');
      if (previouslyFocused && previouslyFocused.isConnected) previouslyFocused.focus();
    };
  }, [open]);

  if (!open) return null;
  return createPortal(
    <div className="modal-host">
      <div className="modal-backdrop" />
      <div
        ref={dialogRef}
        className={`modal modal--${tone}`}
        role={alert ? 'alertdialog' : 'dialog'}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={alert ? bodyId : undefined}
        tabIndex={-1}
      >
        <h2 className="modal__title" id={titleId}>
          {title}
        </h2>
        <div className="modal__body" id={bodyId}>
          {children}
        </div>
        {actions && <div className="modal__actions">{actions}</div>}
      </div>
    </div>,
    document.body,
  );
}
