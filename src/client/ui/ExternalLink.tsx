import type { AnchorHTMLAttributes, ReactNode } from 'react';

export interface ExternalLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'target' | 'rel'> {
  href: string;
  children: ReactNode;
}

/** A link that opens a new window, and says so to screen-reader users. */
export function ExternalLink({ href, children, className, ...rest }: ExternalLinkProps) {
  return (
    <a
      {...rest}
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className={['external-link', className].filter(Boolean).join(' ')}
    >
      {children}
      <span className="visually-hidden">（新しいウィンドウで開きます）</span>
    </a>
  );
}
