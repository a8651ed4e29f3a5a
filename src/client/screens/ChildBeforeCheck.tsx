import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { pageAfter } from '../../domain/flow/model';
import { canSend, type ScreenProps } from '../runtime/screen';
import { parseLandingParams } from '../platform/landingParams';
import { session } from '../platform/session';
import { Checklist } from './term/Checklist';
import { childBeforeCheckChecklist } from './term/checklists';
import { LandingIntro } from './term/LandingIntro';
import { LandingModals } from './term/LandingModals';
import { ResumeLink } from './ResumeLink';
import { useLandingChecks } from './term/useLandingChecks';

/**
 * /child/before-check: the entry page of the child application. The bank's top image, the
 * landing modals (maintenance → unsupported browser → notifications, shared with /term), the
 * numbered confirmations and the documents to prepare, each confirmed by a checkbox. "次へ"
 * sends NEXT; the flow stores the bank code and moves to /child/term. When the flow's guard
 * (childDocumentImagesOffered) refuses NEXT, the page says the bank takes no child
 * application online today, instead of the checklist.
 */
/** When the flow's guard refuses NEXT: the bank offers no way to check the child online today (ADR 0037). */
export const CHILD_APPLICATIONS_CLOSED =
  '現在、お子さまの口座開設はWebでのお申込みを受け付けておりません。お手数ですが、親権者さまとお子さまでお近くの店舗にお越しいただき、お手続きください。';

export default function ChildBeforeCheck({ settings, flow, page, snapshot, send }: ScreenProps) {
  const { bank } = settings;
  const { search } = useLocation();
  const errorPath = flow.pageByState.get(flow.config.meta.errorState)?.path ?? '/child/error';

  // The flow's entry action has already cleared session storage (the runtime starts the machine
  // before this screen mounts), so what is stored here stays for the application.
  useEffect(() => {
    const params = parseLandingParams(search);
    if (params.invitation !== undefined) session.set('invitation', params.invitation);
    if (params.channel !== undefined) session.set('channel', params.channel);
  }, [search]);

  const { modal, dismiss } = useLandingChecks({ bankCode: bank.code, errorPath });

  return (
    <div className="term child-before-check">
      <LandingIntro checklist={childBeforeCheckChecklist} bank={bank} />
      <LandingModals modal={modal} bank={bank} onClose={dismiss} />
      <ResumeLink flow={flow} page={page} settings={settings} />

      {canSend(snapshot, 'NEXT') ? (
        <Checklist
          checklist={childBeforeCheckChecklist}
          bank={bank}
          onNext={() => send({ type: 'NEXT' })}
          onBack={pageAfter(flow, page.path, 'BACK') ? () => send({ type: 'BACK' }) : undefined}
        />
      ) : (
        <p className="alert alert--warning" role="status">
          {CHILD_APPLICATIONS_CLOSED}
        </p>
      )}
    </div>
  );
}
