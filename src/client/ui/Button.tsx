import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ReactNode } from 'react';

export type ButtonVariant = 'primary' | 'secondary';

function classNames(variant: ButtonVariant, extra: string | undefined): string {
  return ['button', `button--${variant}`, extra].filter(Boolean).join(' ');
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  /** While true the button is disabled, busy and shows a spinner (a request is running). */
  loading?: boolean;
  children: ReactNode;
}

/** Full width on phones, at least 44 px high. Defaults to type="button" (no accidental submit). */
export function Button({ variant = 'primary', loading = false, disabled, className, type, children, ...rest }: ButtonProps) {
  return (
    <button
      {...rest}
      type={type ?? 'button'}
      className={classNames(variant, className)}
      disabled={disabled === true || loading}
      aria-busy={loading || undefined}
    >
      {loading && <span className="button__spinner" aria-hidden="true" />}
      <span className="button__label">{children}</span>
      {loading && <span className="visually-hidden">（処理中）</span>}
    </button>
  );
}

export interface LinkButtonProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  href: string;
  variant?: ButtonVariant;
  children: ReactNode;
}

/** A link that looks like a button: for leaving the service (e.g. back to the service intro page). */
export function LinkButton({ variant = 'primary', className, children, ...rest }: LinkButtonProps) {
  return (
    <a {...rest} className={classNames(variant, className)}>
      <span className="button__label">{children}</span>
    </a>
  );
}
