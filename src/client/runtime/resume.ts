import { useNavigate } from 'react-router-dom';
import type { ClientSettings } from '../../domain/bank/types';
import type { FlowModel } from '../../domain/flow/model';
import { RESUME_ARRIVAL, verificationPageOf } from '../../domain/flow/resume';
import type { FlowPage } from '../../domain/flow/types';
import { session } from '../platform/session';

/** Whether the page was reached on the way to resuming an application (see isResumeArrival). */
export function isResumeJourney(arrivalData: Record<string, unknown> | undefined): boolean {
  return arrivalData?.resume === RESUME_ARRIVAL.resume;
}

/**
 * The moves of a resume (ADR 0030), which leave the flow's NEXT/BACK chain: from the landing or
 * error page to the verification page, and from there to the furthest step the server found.
 * Each carries RESUME_ARRIVAL in the history entry, which the navigation guard accepts for
 * exactly these moves (a reload keeps it, an address typed in does not have it).
 */
export function useResumeNavigation(model: FlowModel, page: FlowPage, settings: ClientSettings) {
  const navigate = useNavigate();
  // FlowRouter's NavigationState (not imported: FlowRouter imports this file).
  const state = { from: page.path, data: { ...RESUME_ARRIVAL } };
  return {
    /** The verification page, where 「申込みを再開する」 leads (with `state`, after `remember`). */
    verificationPath: verificationPageOf(model)?.path,
    state,
    /** As the landing page's NEXT does: the verification page names the bank it asks. */
    remember: () => session.set('bankCode', settings.bank.code),
    /** After the code: to the furthest step reached. */
    goTo: (path: string) => navigate(path, { state }),
  };
}
