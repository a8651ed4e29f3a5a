import { useCallback, useEffect, useMemo, useState } from 'react';
import { messages } from '../../domain/messages';
import type { Occupation } from '../../domain/masterdata';
import { fieldErrorsOfAnswer, type ApplicationRecord } from '../api/application';
import { api, messageOf, statusOf } from '../api/client';
import { SchemaForm, type FieldError, type FormData } from '../forms/SchemaForm';
import { withBankWords } from '../forms/stepUi';
import { useFormStep, type FormStepState } from '../forms/useFormStep';
import { session } from '../platform/session';
import { useLoaded } from '../runtime/useLoaded';
import { formOf, type ScreenProps } from '../runtime/screen';
import {
  CHILD_INVITATION_ID,
  CHILD_OCCUPATION_ID,
  CHILD_OCCUPATION_OTHER_ID,
  ChildOccupationField,
  childOccupationErrors,
  childOccupations,
  ChildPersonalFieldsTemplate,
  childWorkplaceBody,
  type ChildOccupationErrors,
  type ChildOccupationValue,
} from './personal/childOccupation';
import { BackButton, stepLockedMessage, useStepNotice } from './stepActions';
import { useFailure } from './useFailure';
import { InvitationField, openInvitation, useInvitationCode } from './workplace/invitation';

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Fields of a 400 shown outside the personal schema. */
const isOccupationField = (field: string) => field === 'occupationId' || field === 'occupationOther';
const isOutsideSchema = (field: string) => isOccupationField(field) || field === 'invitationCode';

/** The focus to a control outside the schema form, once the message it describes is rendered. */
function focusLater(id: string) {
  window.setTimeout(() => document.getElementById(id)?.focus(), 0);
}

/**
 * /child/personal: the personal form (meta.form, drawn and checked from its schema as any form
 * step: useFormStep) with the child's own occupation and invitation code below the birthday
 * (spec sections 3 and 4), sent after the personal data with POST /api/applications/workplace.
 * The code of /child/before-check's URL is applied on arrival (verified, then locked, or not
 * found); back from a later step, the saved code shows verified.
 */
export default function Personal(props: ScreenProps) {
  const { flow, page, settings } = props;
  const fail = useFailure(flow);
  const step = useFormStep(formOf(page), flow.config.meta.applicationType, settings.bank, fail);
  const loaded = step?.loaded;
  const extras = useLoaded(async () => (loaded ? childExtrasOf(loaded.answer.application) : null), [loaded], fail);
  if (!step || !extras) return <p className="loading" role="status">読み込み中です…</p>;
  return <ChildPersonalForm {...props} step={step} extras={extras} fail={fail} />;
}

/** What the child's own controls start from: the occupations, the saved occupation, the code to show. */
interface ChildExtras {
  occupationList: Occupation[];
  occupation: ChildOccupationValue;
  code: Awaited<ReturnType<typeof openInvitation>>;
}

async function childExtrasOf(saved: ApplicationRecord | null | undefined): Promise<ChildExtras> {
  const { occupationList } = await api<{ occupationList: Occupation[] }>('/occupations');
  // Back from a later step (the child's workplace data is saved): the saved code. First visit:
  // the code /child/before-check kept from its URL, applied once for the applicant.
  const code = await openInvitation(typeof saved?.occupationId === 'number', text(saved?.invitationCode) || null, session.get('invitation'));
  const id = saved?.occupationId;
  return { occupationList, occupation: { occupationId: typeof id === 'number' ? id : null, occupationOther: text(saved?.occupationOther) }, code };
}

interface ChildPersonalFormProps extends ScreenProps {
  step: FormStepState;
  extras: ChildExtras;
  fail: (error?: unknown) => void;
}

function ChildPersonalForm({ flow, settings, send, step, extras, fail }: ChildPersonalFormProps) {
  const { bank } = settings;
  const applicationType = flow.config.meta.applicationType;
  const occupationList = extras.occupationList;
  const [birthday, setBirthday] = useState(() => text(step.loaded.initialData.birthday));
  const [fieldErrors, setFieldErrors] = useState<FieldError[]>([]);
  const { notice, show: showNotice, clear: clearNotice } = useStepNotice();
  const [busy, setBusy] = useState(false);
  const [occupation, setOccupation] = useState<ChildOccupationValue>(extras.occupation);
  const [occupationErrors, setOccupationErrors] = useState<ChildOccupationErrors>({});
  const invitation = useInvitationCode(fail);
  const openCode = invitation.open;
  const { code } = extras;
  // The code to show, once, as the page opens.
  useEffect(() => {
    if (code) openCode(code);
  }, [code, openCode]);

  const allowedOccupations = useMemo(() => childOccupations(occupationList, birthday, new Date()), [occupationList, birthday]);
  // A birthday the chosen occupation does not allow clears it (spec section 2).
  useEffect(() => {
    setOccupation((current) =>
      current.occupationId === null || allowedOccupations.some((item) => item.id === current.occupationId) ? current : { occupationId: null, occupationOther: '' },
    );
  }, [occupationList, allowedOccupations]);

  const changeOccupation = useCallback((next: ChildOccupationValue) => {
    setOccupation((previous) => {
      setOccupationErrors((errors) => ({
        occupationId: next.occupationId === previous.occupationId ? errors.occupationId : undefined,
        occupationOther: next.occupationOther === previous.occupationOther && next.occupationId === previous.occupationId ? errors.occupationOther : undefined,
      }));
      return next;
    });
  }, []);

  const afterBirthday = (
    <>
      <ChildOccupationField occupations={allowedOccupations} value={occupation} errors={occupationErrors} disabled={busy} onChange={changeOccupation} />
      <InvitationField id={CHILD_INVITATION_ID} field={invitation.field} errors={invitation.messages} onSettle={invitation.settle} />
    </>
  );
  const formContext = useMemo(() => ({ ...step.formProps.formContext, afterBirthday }), [step.formProps.formContext, afterBirthday]);
  const uiSchema = useMemo(() => ({ ...step.formProps.uiSchema, 'ui:ObjectFieldTemplate': ChildPersonalFieldsTemplate }), [step.formProps.uiSchema]);
  const onDataChange = step.formProps.onDataChange;
  const trackData = useCallback<NonNullable<typeof onDataChange>>(
    (data, previous, form) => {
      setBirthday(text(data.birthday));
      onDataChange?.(data, previous, form);
    },
    [onDataChange],
  );

  /** The child's own errors (from the page or a 400) at their fields: the first of them, in the page's order, takes the focus. */
  const showChildErrors = (errors: ChildOccupationErrors, invitationBlocks: boolean) => {
    setOccupationErrors(errors);
    const target = errors.occupationId ? CHILD_OCCUPATION_ID : errors.occupationOther ? CHILD_OCCUPATION_OTHER_ID : invitationBlocks ? CHILD_INVITATION_ID : null;
    if (target) focusLater(target);
  };

  const submit = async (data: FormData) => {
    const errors = childOccupationErrors(occupation, allowedOccupations);
    const invitationBlocks = invitation.blocks();
    if (errors.occupationId || errors.occupationOther || invitationBlocks) {
      showChildErrors(errors, invitationBlocks);
      return;
    }
    setBusy(true);
    setFieldErrors([]);
    setOccupationErrors({});
    clearNotice();
    try {
      await api(step.loaded.step.post, { method: 'POST', body: step.answersOf(data) });
      await api('/applications/workplace', { method: 'POST', body: childWorkplaceBody(occupation, allowedOccupations, invitation.verified()) });
      send({ type: 'NEXT' });
    } catch (error) {
      const locked = stepLockedMessage(error);
      if (statusOf(error) === 400) {
        const all = fieldErrorsOfAnswer(error);
        const occupationAnswer: ChildOccupationErrors = {};
        for (const item of all) if (isOccupationField(item.field)) occupationAnswer[item.field as keyof ChildOccupationErrors] ??= item.message;
        // A code that ended since it was applied: not found, as on 「適用」.
        const invitationRefused = all.some((item) => item.field === 'invitationCode');
        if (invitationRefused) invitation.refuse();
        if (occupationAnswer.occupationId || occupationAnswer.occupationOther || invitationRefused) showChildErrors(occupationAnswer, invitationRefused);
        setFieldErrors(all.filter((item) => !isOutsideSchema(item.field)));
        if (all.length === 0) showNotice(messageOf(error) ?? messages.badRequest);
      } else if (locked) {
        showNotice(locked);
      } else {
        fail(error);
      }
    } finally {
      setBusy(false);
    }
  };

  const note = step.loaded.step.notes?.[applicationType];
  return (
    <section className="stack">
      {note && <p className="form-intro">{withBankWords(note, bank)}</p>}
      {notice}
      <SchemaForm
        {...step.formProps}
        uiSchema={uiSchema}
        formContext={formContext}
        onDataChange={trackData}
        submitLabel="次へ"
        busy={busy}
        fieldErrors={fieldErrors}
        onSubmit={submit}
      />
      <BackButton send={send} disabled={busy} />
    </section>
  );
}
