import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import type { ScreenProps } from '../runtime/screen';
import { applyLandingParams, parseLandingParams } from '../platform/landingParams';
import { LandingModals } from './term/LandingModals';
import { Checklist } from './term/Checklist';
import { generalTermChecklist } from './term/checklists';
import { termTexts as t } from './term/texts';
import { useLandingChecks } from './term/useLandingChecks';

/**
 * /term: the general landing page. Top image and introduction, the maintenance / browser /
 * notification dialog (spec section 4 precedence), then the pre-application check
 * (checklists/general-term.json).
 * "次へ" sends NEXT; the flow stores the bank code and moves to /verification.
 */
export default function GeneralTerm({ settings, flow, send }: ScreenProps) {
  const { bank } = settings;
  const { search } = useLocation();
  const errorPath = flow.pageByState.get(flow.config.meta.errorState)?.path ?? '/error';

  // The flow's entry action has already cleared session storage (the runtime starts the
  // machine before this screen mounts), so what is stored here stays.
  useEffect(() => {
    applyLandingParams(parseLandingParams(search));
  }, [search]);

  const { modal, dismiss } = useLandingChecks({ bankCode: bank.code, errorPath });

  return (
    <div className="term">
      <img className="hero-image" src="/bank/top" alt={`${bank.NAME} スマホで口座開設`} width={1200} height={500} />
      <section className="intro" aria-label="サービスのご案内">
        <p>{t.intro(bank.NAME)}</p>
        <ul className="feature-list">
          <li>スマートフォンだけでお申込みが完了します</li>
          <li>通帳なし（通帳を発行しない口座です）</li>
          <li>印鑑なし（原則として印鑑の登録は不要です）</li>
        </ul>
        <p className="note">{t.refusalNote}</p>
      </section>
      <LandingModals modal={modal} bank={bank} onClose={dismiss} />
      <Checklist checklist={generalTermChecklist} bank={bank} onNext={() => send({ type: 'NEXT' })} />
    </div>
  );
}
