import { useEffect, useRef, type CSSProperties, type ReactNode } from 'react';
import type { ClientSettings } from '../../domain/bank/types';
import type { FlowPage } from '../../domain/flow/types';
import { ExternalLink } from './ExternalLink';

export interface LayoutProps {
  settings: ClientSettings;
  page: FlowPage;
  /** Steps of the flow; the step bar shows when both this and page.step are set. */
  totalSteps?: number;
  /** Reached by a page change: the heading takes the focus (see useHeadingFocus). */
  focusHeading?: boolean;
  children: ReactNode;
}

/**
 * After a page change the focus goes to the new page's heading, as accessible single-page apps
 * do: a screen reader reads where the applicant now is, and the next Tab starts at the top of
 * the page. Only when nothing else holds the focus (the button pressed on the previous page is
 * gone): a screen that moves it itself on arrival (a dialog, a notice, a revealed question)
 * keeps it, and so does the focus on the first error after a submit.
 */
function useHeadingFocus(focusHeading: boolean) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const active = document.activeElement;
    if (focusHeading && (active === null || active === document.body)) heading.current?.focus({ preventScroll: true });
  }, [focusHeading]);
  return heading;
}

/** Service name shown in the title bar under the bank logo. */
export const SERVICE_TITLE = 'スマホで口座開設';

export function StepBar({ step, total }: { step: number; total: number }) {
  const percent = Math.min(100, Math.max(0, (step / total) * 100));
  return (
    <div
      className="step-bar"
      role="progressbar"
      aria-valuemin={1}
      aria-valuemax={total}
      aria-valuenow={step}
      aria-label={`${total}ステップ中${step}ステップ目`}
    >
      <span className="step-bar__text" aria-hidden="true">
        ステップ <strong>{step}</strong>/{total}
      </span>
      <span className="step-bar__track" aria-hidden="true">
        <span className="step-bar__fill" style={{ width: `${percent}%` }} />
      </span>
    </div>
  );
}

/**
 * The frame of every screen: header with the bank logo, a title bar, the card with the step
 * bar and the page heading, and the bank footer. The brand colour comes from the bank data as
 * the CSS custom property --brand (a style attribute: allowed by our CSP, unlike inline script).
 */
export function Layout({ settings, page, totalSteps, focusHeading = false, children }: LayoutProps) {
  const { bank } = settings;
  const heading = useHeadingFocus(focusHeading);
  // React's CSSProperties has no index for custom properties; the cast only adds --brand.
  const rootStyle = { '--brand': bank.themeColor } as CSSProperties;
  return (
    <div className="app" style={rootStyle}>
      <a className="skip-link" href="#main">
        本文へスキップ
      </a>
      <header className="site-header">
        <div className="site-header__brand">
          <img className="site-header__logo" src="/bank/logo" alt={bank.NAME} />
        </div>
        <div className="title-bar">
          <p className="title-bar__text">{SERVICE_TITLE}</p>
        </div>
      </header>
      <main id="main" className="site-main" tabIndex={-1}>
        <div className="card">
          {page.step !== undefined && totalSteps !== undefined && totalSteps > 0 && (
            <StepBar step={page.step} total={totalSteps} />
          )}
          <h1 className="page-title" ref={heading} tabIndex={-1}>
            {page.title}
          </h1>
          <div className="card__body">{children}</div>
        </div>
      </main>
      <footer className="site-footer">
        <p className="site-footer__legal-name">{bank.legalName}</p>
        <p className="site-footer__text">{bank.footer.registration}</p>
        <p className="site-footer__text">{bank.footer.membership}</p>
        <p className="site-footer__group">
          <ExternalLink href={bank.links.groupSite} className="site-footer__group-link">
            ふくおかフィナンシャルグループ
          </ExternalLink>
        </p>
        <p className="site-footer__copyright">
          <small>{bank.footer.copyright}</small>
        </p>
      </footer>
    </div>
  );
}
