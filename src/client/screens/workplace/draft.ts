import type { FormData } from '../../forms/SchemaForm';
import { drafts } from '../../platform/drafts';
import type { CodeState, InitialStep, StepState } from './model';

/** /workplace as typed and not yet sent: the form's data and the step's own state (codes, existing account). */
export interface WorkplaceDraft {
  data: FormData;
  state: StepState;
}

function isDraft(value: unknown): value is WorkplaceDraft {
  if (!value || typeof value !== 'object') return false;
  const { data, state } = value as Partial<WorkplaceDraft>;
  return !!data && typeof data === 'object' && !!state && typeof state === 'object' && 'workplaceCode' in state && 'invitation' in state && 'existing' in state;
}

/** A code as it was left: a lookup still running when the applicant left is not running now. */
const settled = (code: CodeState): CodeState => ({ ...code, busy: false });

/** The step as it opens: the unsent draft of this page, when there is one, over what was saved. */
export function openWithDraft(step: InitialStep, path: string): InitialStep {
  const draft = drafts.get(path);
  if (!isDraft(draft)) return step;
  const { state } = draft;
  return { ...step, data: draft.data, state: { ...state, workplaceCode: settled(state.workplaceCode), invitation: settled(state.invitation) } };
}

export const keepDraft = (path: string, draft: WorkplaceDraft): void => drafts.set(path, draft);
export const dropDraft = (path: string): void => drafts.remove(path);
