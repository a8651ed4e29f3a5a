import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { messages } from '../../domain/messages';
import { isRecord, uiSchemaOf } from '../../domain/schemas/form-step';
import { normalizeWorkplaceCode, splitPhone } from '../../domain/rules';
import { SchemaForm, type FormApi, type FormData } from '../forms/SchemaForm';
import { withBankWords } from '../forms/stepUi';
import { useFormStep, type FormStepState } from '../forms/useFormStep';
import type { CodeField } from '../forms/widgets/CodeApplyWidget';
import type { Answer, ExistingAccountField } from '../forms/widgets/ExistingAccountWidget';
import { formOf, type ScreenProps } from '../runtime/screen';
import { useLoaded } from '../runtime/useLoaded';
import { Toast } from '../ui/Toast';
import { BackButton, useStepPost } from './stepActions';
import { useFailure } from './useFailure';
import {
  appliedWorkplace,
  bodyOf,
  EMPTY_CODE,
  isPermitted,
  loadWorkplaceStep,
  lookupWorkplace,
  NO_EXISTING_ACCOUNT,
  ruleErrorsOf,
  workplaceAnswers,
  workplaceRequired,
  type InitialStep,
  type StepState,
} from './workplace/model';
import { invitationCallbacks } from './workplace/invitation';
import { dropDraft, keepDraft, openWithDraft } from './workplace/draft';

/**
 * /workplace (step 2 of 7): the workplace form, drawn and checked from its schema
 * (schemas/workplace.schema.json: the occupations offered, the その他 text, the layout and
 * words, the shared rules; useFormStep), with what is not data yet kept here: the workplace
 * code (「適用」 fills and locks the workplace's name and phone), the existing account for a
 * workplace that permits one, and the invitation code. The codes of the landing URL are
 * filled in and applied on the first visit; without either, a reminder stays at the bottom
 * until closed. What was typed and not yet sent is shown again when the applicant comes back
 * (「戻る」, then 「次へ」).
 */
export default function Workplace(props: ScreenProps) {
  const { flow, page, settings } = props;
  const fail = useFailure(flow);
  const step = useFormStep(formOf(page), flow.config.meta.applicationType, settings.bank, fail);
  const loaded = step?.loaded;

  const path = page.path;
  const initial = useLoaded(
    async () => {
      if (!loaded) return null;
      const opened = await loadWorkplaceStep(loaded.answer.application ?? {}, loaded.choices.occupationId ?? []);
      // A stored phone the form cannot show in its three parts: our bug, the error page.
      if (opened.brokenPhone) throw new Error('the stored workplace phone number does not split into three parts');
      return openWithDraft(opened, path);
    },
    [loaded, path],
    fail,
  );

  if (!step || !initial) return <p className="loading" role="status">読み込み中です…</p>;
  return <WorkplaceForm {...props} step={step} initial={initial} fail={fail} />;
}

interface WorkplaceFormProps extends ScreenProps {
  step: FormStepState;
  initial: InitialStep;
  fail: (error?: unknown) => void;
}

/** A field's uiSchema entry with more of its own keys and ui:options. */
function withOptions(entry: unknown, options: Record<string, unknown>, more: Record<string, unknown> = {}): Record<string, unknown> {
  const own = isRecord(entry) ? entry : {};
  return { ...own, ...more, 'ui:options': { ...(isRecord(own['ui:options']) ? own['ui:options'] : {}), ...options } };
}

function WorkplaceForm({ send, step, initial, fail, page, settings }: WorkplaceFormProps) {
  const { loaded, formProps, answersOf } = step;
  const occupations = loaded.choices.occupationId ?? [];
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

  // The form opens with the answers this page loaded (or its draft), not the stored form's:
  // the fields they ask (x-when) are told before the form shows.
  const { onDataChange } = formProps;
  const opened = useRef(false);
  useLayoutEffect(() => {
    if (opened.current || !formApi.current) return;
    opened.current = true;
    onDataChange?.(initial.data, {}, formApi.current);
  }, [onDataChange, initial.data]);
  const trackData = useCallback<NonNullable<typeof onDataChange>>(
    (next, previous, form) => {
      setData(next);
      onDataChange?.(next, previous, form);
    },
    [onDataChange],
  );

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
          if (found) formApi.current?.patch(workplaceAnswers(found));
        } catch (error) {
          setState((s) => ({ ...s, workplaceCode: { ...s.workplaceCode, busy: false } }));
          failRef.current(error);
        }
      },
      onClear: () => {
        setState((s) => ({ ...s, workplaceCode: EMPTY_CODE, workplace: null, existing: NO_EXISTING_ACCOUNT }));
        formApi.current?.patch(workplaceAnswers(null));
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
  const sharedRules = formProps.ruleErrors;
  const ruleErrors = useCallback((answers: FormData) => ruleErrorsOf(answers, stateRef.current, (all) => sharedRules?.(all) ?? []), [state, sharedRules]);

  // The schema's layout and words (x-ui) with what this page's own state decides: the codes'
  // inputs, the workplace's name and phone locked once its code is applied and required by
  // the occupation chosen, the existing-account question for a workplace that permits one.
  const locked = appliedWorkplace(state) !== null;
  const requirement = workplaceRequired(data.occupationId, occupations) ? 'required' : 'optional';
  const permitted = isPermitted(state);
  const uiSchema = useMemo<UiSchema<FormData, RJSFSchema>>(() => {
    const ui = formProps.uiSchema ?? {};
    const readonly = { 'ui:readonly': locked, ...(locked ? { 'ui:placeholder': undefined } : {}) };
    // The question is asked as the server derives it from the applied workplace (x-when existingAccountAsked).
    const question = permitted ? uiSchemaOf(loaded.schema).existedAccountBranchCode : ui.existedAccountBranchCode;
    return {
      ...ui,
      workplaceId: withOptions(ui.workplaceId, { code: { ...workplaceCode, ...state.workplaceCode } }),
      workplaceName: withOptions(ui.workplaceName, { requirement }, readonly),
      workplacePhoneNumber: withOptions(ui.workplacePhoneNumber, { requirement }, readonly),
      existedAccountBranchCode: withOptions(question, { existingAccount: { ...existingAccount, ...state.existing } }),
      invitationCode: withOptions(ui.invitationCode, { code: { ...invitation, ...state.invitation } }),
    };
  }, [formProps.uiSchema, loaded.schema, workplaceCode, invitation, existingAccount, state, locked, requirement, permitted]);

  const submit = async (sent: FormData) => {
    if (await post(loaded.step.post, bodyOf(answersOf(sent), stateRef.current))) dropDraft(page.path);
  };

  const { intro } = loaded.step;
  return (
    <section className="stack">
      {intro && <p>{withBankWords(intro, settings.bank)}</p>}
      {notice}
      <SchemaForm
        {...formProps}
        initialData={initial.data}
        uiSchema={uiSchema}
        onDataChange={trackData}
        ruleErrors={ruleErrors}
        submitLabel="次へ"
        busy={busy}
        fieldErrors={serverErrors}
        apiRef={formApi}
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
