import type { ReactNode } from 'react';
import { ExternalLink } from '../../ui/ExternalLink';

export interface BlockingMessageProps {
  children: ReactNode;
  /** Link to the branch search for reserving a visit, when the applicant should consult a branch. */
  branchSearch?: { href: string; label: string };
}

/** The message of a failed pre-check gate, announced as an alert when it appears. */
export function BlockingMessage({ children, branchSearch }: BlockingMessageProps) {
  return (
    <div className="alert alert--error" role="alert">
      <p className="alert__text">{children}</p>
      {branchSearch && (
        <p className="alert__link">
          <ExternalLink href={branchSearch.href}>{branchSearch.label}</ExternalLink>
        </p>
      )}
    </div>
  );
}
