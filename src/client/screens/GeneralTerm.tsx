import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import type { ScreenProps } from '../runtime/screen';
import { applyLandingParams, parseLandingParams } from '../platform/landingParams';
import { LandingModals } from './term/LandingModals';
import { ResumeLink } from './ResumeLink';
import { Checklist } from './term/Checklist';
import { LandingIntro } from './term/LandingIntro';
import { generalTermChecklist } from './term/checklists';
import { useLandingChecks } from './term/useLandingChecks';

/**
 * /term: the general landing page. Top image and introduction, the maintenance / browser /
 * notification dialog (spec section 4 precedence), then the pre-application check (the
 * introduction and the check are checklists/general-term.json).
 * "次へ" sends NEXT; the flow stores the bank code and moves to /verification.
 */
export default function GeneralTerm({ settings, flow, page, send }: ScreenProps) {
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
      <LandingIntro checklist={generalTermChecklist} bank={bank} />
      <LandingModals modal={modal} bank={bank} onClose={dismiss} />
      <ResumeLink flow={flow} page={page} settings={settings} />
      <Checklist checklist={generalTermChecklist} bank={bank} onNext={() => send({ type: 'NEXT' })} />
    </div>
  );
}
