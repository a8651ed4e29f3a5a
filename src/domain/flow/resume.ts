import { DOCUMENT_TYPES, EKYC_STATUS, isEkycPending, type DocumentType, type EkycStatus } from '../ekyc';
import { invokesOf, pageAfter, type FlowModel } from './model';
import type { FlowPage } from './types';
import { PROVIDER_RETURN_ACTOR, type ScreenName } from './vocabulary';

/**
 * Resuming an application (ADR 0030): where an applicant who comes back is sent, and which
 * arrivals the navigation guard lets in on the way. All of it is read from the flow: the steps
 * are the pages that follow the e-mail verification page by NEXT, in the flow's order, and the
 * furthest step reached is the one after the last step whose answers are stored. Nothing names
 * a page: a step moved, added or removed in the flow JSON moves the resume target with it.
 */

/** What the server knows an application holds. */
export interface ResumeFacts {
  /** Forms whose answers are stored ("pin" once the PIN is set). */
  forms: ReadonlySet<string>;
  /** Identity documents uploaded (DOCUMENT_TYPES). */
  documents: ReadonlySet<string>;
  /** The status of the newest identity check, if one was started. */
  ekycStatus?: EkycStatus | undefined;
}

/** The screen that asks the mail address and the code; resume goes through it too. */
export const VERIFICATION_SCREEN = 'Verification' satisfies ScreenName;

/** Pages whose stored fact is an uploaded document rather than a form. */
const documentScreens: Partial<Record<ScreenName, readonly DocumentType[]>> = {
  IdentificationDocuments: ['INDIVIDUAL_NUMBER_CARD'],
  SupplementaryDocuments: DOCUMENT_TYPES.filter((type) => type !== 'INDIVIDUAL_NUMBER_CARD'),
};

/** The confirmation tick stores nothing: the page is passed only when a later step is stored. */
const screensWithoutFacts: ReadonlySet<ScreenName> = new Set<ScreenName>(['Confirmation']);

export function verificationPageOf(model: FlowModel): FlowPage | undefined {
  return model.pages.find((page) => page.screen === VERIFICATION_SCREEN);
}

/** The pages after the verification page along NEXT, in order: where a resume may land. */
export function resumeSteps(model: FlowModel): FlowPage[] {
  const steps: FlowPage[] = [];
  let page = verificationPageOf(model);
  while (page) {
    const next = pageAfter(model, page.path, 'NEXT');
    if (!next || steps.includes(next)) break;
    steps.push(next);
    page = next;
  }
  return steps;
}

/** Whether the application holds what the page stores. */
function isStored(page: FlowPage, facts: ResumeFacts): boolean {
  const documents = documentScreens[page.screen];
  if (documents) return documents.some((type) => facts.documents.has(type));
  if (screensWithoutFacts.has(page.screen) || page.forms.length === 0) return false;
  return page.forms.every((form) => facts.forms.has(form));
}

/**
 * Whether a step asks forms the application has not stored (document pages and the
 * confirmation tick aside: a child has one kind of identity document or the other). Only an
 * application moved onto another version (ADR 0032) can have such a gap before its last step.
 */
function missesForms(page: FlowPage, facts: ResumeFacts): boolean {
  return documentScreens[page.screen] === undefined && !screensWithoutFacts.has(page.screen) && page.forms.some((form) => !facts.forms.has(form));
}

/** The page the identity provider sends the applicant back to, which polls the check's result. */
export function providerReturnPageOf(model: FlowModel): FlowPage | undefined {
  return model.pages.find((page) => {
    const node = model.root.children.get(page.stateId);
    return node !== undefined && invokesOf(node).some((invoke) => invoke.src === PROVIDER_RETURN_ACTOR);
  });
}

/**
 * The furthest step reached: the step after the last one whose answers are stored (the first
 * step when nothing is stored; the last step when every one is), or an earlier step whose
 * forms are missing. An identity check under way
 * or approved goes on where the provider returns (its result decides the rest), since a new
 * check cannot be started then.
 */
export function furthestStep(model: FlowModel, facts: ResumeFacts): FlowPage | undefined {
  const status = facts.ekycStatus;
  if (status !== undefined && (isEkycPending(status) || status === EKYC_STATUS.bankerProcessing)) {
    const returnPage = providerReturnPageOf(model);
    if (returnPage) return returnPage;
  }
  const steps = resumeSteps(model);
  let last = -1;
  steps.forEach((page, index) => {
    if (isStored(page, facts)) last = index;
  });
  const next = Math.min(last + 1, steps.length - 1);
  // Never past a form the flow asks and the application lacks: completion would wait for it.
  const gap = steps.findIndex((page) => missesForms(page, facts));
  return steps[gap >= 0 && gap < next ? gap : next];
}

/** The history state of an arrival on the way to resuming (see isResumeArrival). */
export const RESUME_ARRIVAL = { resume: true } as const;

/**
 * The navigation guard's second rule: on the way to resuming, the verification page opens from
 * the flow's landing or error page, and a step page from the verification page. A page typed
 * into the address bar still has no such history state and lands on the error page.
 */
export function isResumeArrival(model: FlowModel, toPath: string, fromPath: string | undefined): boolean {
  const verification = verificationPageOf(model);
  if (!verification || fromPath === undefined) return false;
  if (toPath === verification.path) {
    const { landing, errorState } = model.config.meta;
    return [landing, errorState].some((state) => model.pageByState.get(state)?.path === fromPath);
  }
  return fromPath === verification.path && resumeSteps(model).some((page) => page.path === toPath);
}
