import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { HIDDEN, occupationUi } from '../forms/uiFragments';
import { messages } from '../../domain/messages';
import { WORKPLACE_FIELDS } from '../../domain/steps';
import { normalizeWorkplaceCode, normalizeWorkplaceName, splitPhone } from '../../domain/rules';
import { SchemaForm, type FormApi, type FormData } from '../forms/SchemaForm';
import type { CodeField } from '../forms/widgets/CodeApplyWidget';
import type { Answer, ExistingAccountField } from '../forms/widgets/ExistingAccountWidget';
import { formOf, type ScreenProps } from '../runtime/screen';
import { useLoaded } from '../runtime/useLoaded';
import { Toast } from '../ui/Toast';
import { BackButton, useStepPost } from './stepActions';
import { useFailure } from './useFailure';
import {
  bodyOf,
  EMPTY_CODE,
  isPermitted,
  loadWorkplaceStep,
  lookupWorkplace,
  NO_EXISTING_ACCOUNT,
  ruleErrorsOf,
  type InitialStep,
  type Occupation,
  type StepState,
} from './workplace/model';
import { INVITATION_DESCRIPTION, INVITATION_TITLE, invitationCallbacks } from './workplace/invitation';
import { dropDraft, keepDraft, openWithDraft } from './workplace/draft';

/** Errors of fields without a control of their own are shown at the section that sets them. */
const ERROR_TARGETS = { existedAccountNumber: 'existedAccountBranchCode' };

/**
 * /workplace (step 2 of 7): occupation, workplace code (「適用」 fills and locks the workplace's
 * name and phone), workplace name and phone, the existing account for a workplace that
 * permits one, and an invitation code. The codes of the landing URL are filled in and applied
 * on the first visit; without either, a reminder stays at the bottom until closed. What was
 * typed and not yet sent is shown again when the applicant comes back (「戻る」, then 「次へ」).
 */
export default function Workplace(props: ScreenProps) {
  const fail = useFailure(props.flow);

  const path = props.page.path;
  const initial = useLoaded(
    async () => {
      const step = await loadWorkplaceStep();
      // A stored phone the form cannot show in its three parts: our bug, the error page.
      if (step.brokenPhone) throw new Error('the stored workplace phone number does not split into three parts');
      return openWithDraft(step, path);
    },
    [path],
    fail,
  );

  if (!initial) return <p className="loading" role="status">読み込み中です…</p>;
  return <WorkplaceForm {...props} initial={initial} fail={fail} />;
}

interface WorkplaceFormProps extends ScreenProps {
  initial: InitialStep;
  fail: (error?: unknown) => void;
}

function WorkplaceForm({ send, initial, fail, page }: WorkplaceFormProps) {
  const { occupations } = initial;
  const formApi = useRef<FormApi>(null);
  // The step's own state is read by stable callbacks (the form compares its props deeply and
  // takes every function as unchanged), so it lives in a ref updated as it changes.
  const [state, setStateValue] = useState<StepState>(initial.state);
  const stateRef = useRef(state);
  const setState = useCallback((update: (current: StepState) => StepState) => {
    stateRef.current = update(stateRef.current);
    setStateValue(stateRef.current);
  }, []);
  const [data, setData] = useState<FormData>(initial.data);
  const occupationId = data.occupationId;
  // What is typed stays for this page until it is sent (see workplace/draft.ts).
  const edited = useRef(false);
  useEffect(() => {
    if (edited.current) keepDraft(page.path, { data, state });
    edited.current = true;
  }, [page.path, data, state]);
  const [remind, setRemind] = useState(initial.remind);
  const { busy, fieldErrors: serverErrors, notice, post } = useStepPost(send, fail);
  const failRef = useRef(fail);
  failRef.current = fail;

  const occupation: Occupation | undefined = occupations.find((item) => item.id === occupationId);
  const locked = state.workplaceCode.status === 'verified' && state.workplace !== null;

  const workplaceCode = useMemo<Omit<CodeField, 'text' | 'status' | 'busy'>>(
    () => ({
      name: '勤務先コード',
      maxLength: 8,
      onText: (text) => setState((s) => ({ ...s, workplaceCode: { ...s.workplaceCode, text, status: 'unverified' } })),
      onLeave: () => setState((s) => ({ ...s, workplaceCode: { ...s.workplaceCode, text: normalizeWorkplaceCode(s.workplaceCode.text) } })),
      onApply: async () => {
        const code = normalizeWorkplaceCode(stateRef.current.workplaceCode.text);
        setState((s) => ({ ...s, workplaceCode: { text: code, status: 'unverified', busy: true } }));
        try {
          const found = await lookupWorkplace(code);
          // A phone that does not split into three parts cannot be shown (spec section 8).
          if (found && splitPhone(found.phoneNumber) === null) {
            failRef.current();
            return;
          }
          setState((s) => ({
            ...s,
            workplaceCode: { text: code, status: found ? 'verified' : 'notFound', busy: false },
            workplace: found,
            existing: NO_EXISTING_ACCOUNT,
          }));
          if (found) formApi.current?.patch({ workplaceName: found.name, workplacePhoneNumber: found.phoneNumber });
        } catch (error) {
          setState((s) => ({ ...s, workplaceCode: { ...s.workplaceCode, busy: false } }));
          failRef.current(error);
        }
      },
      onClear: () => {
        setState((s) => ({ ...s, workplaceCode: EMPTY_CODE, workplace: null, existing: NO_EXISTING_ACCOUNT }));
        formApi.current?.patch({ workplaceName: undefined, workplacePhoneNumber: undefined });
      },
    }),
    [setState],
  );

  const invitation = useMemo(
    () =>
      invitationCallbacks(
        () => stateRef.current.invitation,
        (update) => setState((s) => ({ ...s, invitation: update(s.invitation) })),
        (error) => failRef.current(error),
      ),
    [setState],
  );

  const existingAccount = useMemo<Omit<ExistingAccountField, 'answer' | 'branch' | 'account'>>(
    () => ({
      onAnswer: (answer: Answer) => setState((s) => ({ ...s, existing: { ...s.existing, answer } })),
      onBranch: (branch: string) => setState((s) => ({ ...s, existing: { ...s.existing, branch } })),
      onAccount: (account: string) => setState((s) => ({ ...s, existing: { ...s.existing, account } })),
    }),
    [setState],
  );

  // Reads the ref (current even before React renders the change); a new function per state, so
  // the form drops an error shown for a state that has changed (a code applied, an answer given).
  const ruleErrors = useCallback((data: FormData) => ruleErrorsOf(data, stateRef.current, occupations), [state, occupations]);

  const requirement = occupation?.workplaceRequired ? 'required' : 'optional';
  const uiSchema = useMemo<UiSchema<FormData, RJSFSchema>>(
    () => ({
      'ui:order': [...WORKPLACE_FIELDS, '*'],
      ...occupationUi(occupations, occupation),
      workplaceId: {
        'ui:widget': 'CodeApplyWidget',
        'ui:title': '勤務先コード',
        'ui:description': 'お勤め先からご案内のある方は、入力して「適用」を押してください。お勤め先名と電話番号が入力されます。',
        'ui:options': { code: { ...workplaceCode, ...state.workplaceCode } },
      },
      workplaceName: {
        'ui:widget': 'NormalizedTextWidget',
        'ui:title': 'お勤め先名',
        'ui:placeholder': locked ? undefined : '例：株式会社〇〇',
        'ui:readonly': locked,
        'ui:options': { normalize: normalizeWorkplaceName, autocomplete: 'organization', requirement },
      },
      workplacePhoneNumber: {
        'ui:widget': 'PhoneWidget',
        'ui:title': 'お勤め先電話番号',
        'ui:readonly': locked,
        'ui:options': { group: true, requirement },
      },
      existedAccountBranchCode: isPermitted(state)
        ? {
            'ui:widget': 'ExistingAccountWidget',
            'ui:title': 'お持ちの口座がありますか',
            'ui:options': { group: true, requirement: 'required', existingAccount: { ...existingAccount, ...state.existing } },
          }
        : HIDDEN,
      existedAccountNumber: HIDDEN,
      invitationCode: {
        'ui:widget': 'CodeApplyWidget',
        'ui:title': INVITATION_TITLE,
        'ui:description': INVITATION_DESCRIPTION,
        'ui:options': { code: { ...invitation, ...state.invitation } },
      },
    }),
    [occupations, occupation, workplaceCode, invitation, existingAccount, state, locked, requirement],
  );

  const submit = async (sent: FormData) => {
    if (await post('/applications/workplace', bodyOf(sent, stateRef.current, occupations))) dropDraft(page.path);
  };

  return (
    <section className="stack">
      <p>ご職業とお勤め先を入力してください。勤務先コード・紹介コードをお持ちの方は、あわせて入力してください。</p>
      {notice}
      <SchemaForm
        schemaName={formOf(page)}
        initialData={initial.data}
        uiSchema={uiSchema}
        submitLabel="次へ"
        busy={busy}
        fieldErrors={serverErrors}
        ruleErrors={ruleErrors}
        errorTargets={ERROR_TARGETS}
        apiRef={formApi}
        ownValidation
        onDataChange={setData}
        onSubmit={submit}
        beforeSubmit={
          <Toast open={remind} onClose={() => setRemind(false)}>
            {messages.workplaceOrInvitationReminder}
          </Toast>
        }
      />
      <BackButton send={send} disabled={busy} />
    </section>
  );
}
