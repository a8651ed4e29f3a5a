import { useCallback, useEffect, useMemo, useState } from 'react';
import { personalRuleErrors } from '../../domain/rules';
import { messages } from '../../domain/messages';
import { fieldErrorsOfAnswer } from '../api/application';
import { api, messageOf, statusOf } from '../api/client';
import { useFuriganaSuggestion } from '../forms/furigana';
import { SchemaForm, type FieldError, type FormApi, type FormData } from '../forms/SchemaForm';
import type { AddressCandidate, PostalSearchContext } from '../forms/widgets/PostalAddressWidget';
import { formOf, type ScreenProps } from '../runtime/screen';
import {
  addressModePatch,
  bodyOf,
  ERROR_TARGETS,
  initialDataOf,
  personalUiSchema,
  visibleFieldsOf,
} from './personal/form';
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
import type { Occupation } from '../../domain/masterdata';
import { session } from '../platform/session';
import { BackButton, stepLockedMessage, useStepNotice } from './stepActions';
import { useFailure } from './useFailure';
import { InvitationField, openInvitation, useInvitationCode } from './workplace/invitation';

interface ApplicationsAnswer {
  application: Record<string, unknown> | null;
  applicationParent: Record<string, unknown> | null;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Fields of a 400 shown outside the personal schema, on /child/personal. */
const isOccupationField = (field: string) => field === 'occupationId' || field === 'occupationOther';
const isOutsideSchema = (field: string) => isOccupationField(field) || field === 'invitationCode';

/** The focus to a control outside the schema form, once the message it describes is rendered. */
function focusLater(id: string) {
  window.setTimeout(() => document.getElementById(id)?.focus(), 0);
}

/**
 * /personal and /child/personal: name, kana, birthday, gender, phones, address (postal code
 * search or a temporary address), purposes of use and, for a bank that asks, the reason for
 * opening an account far from home. What was entered before is shown again (back from the
 * next step, or a reload); furigana is suggested from the name.
 *
 * /child/personal also asks the child's occupation and the invitation code (spec sections 3
 * and 4), sent after the personal data with POST /api/applications/workplace: the code of
 * /child/before-check's URL is applied on arrival (verified, then locked, or not found); back
 * from a later step, the saved code shows verified.
 */
export default function Personal({ flow, page, settings, send }: ScreenProps) {
  const { bank } = settings;
  const applicationType = flow.config.meta.applicationType;
  const [initialData, setInitialData] = useState<FormData | null>(null);
  const [data, setData] = useState<FormData>({});
  const [fieldErrors, setFieldErrors] = useState<FieldError[]>([]);
  const { notice, show: showNotice, clear: clearNotice } = useStepNotice();
  const [busy, setBusy] = useState(false);
  const child = applicationType === 'CHILD';
  /** Child flow: the child's own occupation (outside the personal schema), its list and errors. */
  const [occupationList, setOccupationList] = useState<Occupation[]>([]);
  const [occupation, setOccupation] = useState<ChildOccupationValue>({ occupationId: null, occupationOther: '' });
  const [occupationErrors, setOccupationErrors] = useState<ChildOccupationErrors>({});

  /** A failed call: 401 is handled by the client (session error page); anything else is a system error. */
  const fail = useFailure(flow);
  const invitation = useInvitationCode(fail);
  const openCode = invitation.open;

  useEffect(() => {
    let alive = true;
    const load = async () => {
      const [{ application }, occupations] = await Promise.all([
        api<ApplicationsAnswer>('/applications'),
        child ? api<{ occupationList: Occupation[] }>('/occupations') : Promise.resolve(null),
      ]);
      // Back from a later step (the child's workplace data is saved): the saved code. First visit:
      // the code /child/before-check kept from its URL, applied once for the applicant.
      const savedOccupation = application?.occupationId;
      const code = child
        ? await openInvitation(typeof savedOccupation === 'number', text(application?.invitationCode) || null, session.get('invitation'))
        : null;
      return { application, occupations, code };
    };
    load().then(
      ({ application, occupations, code }) => {
        if (!alive) return;
        const initial = initialDataOf(application);
        if (occupations) {
          setOccupationList(occupations.occupationList);
          const id = application?.occupationId;
          setOccupation({
            occupationId: typeof id === 'number' ? id : null,
            occupationOther: text(application?.occupationOther),
          });
        }
        if (code) openCode(code);
        setInitialData(initial);
        setData(initial);
      },
      (error: unknown) => alive && fail(error),
    );
    return () => {
      alive = false;
    };
  }, [fail, child, openCode]);

  const birthday = text(data.birthday);
  const allowedOccupations = useMemo(() => childOccupations(occupationList, birthday, new Date()), [occupationList, birthday]);
  // A birthday the chosen occupation does not allow clears it (spec section 2).
  useEffect(() => {
    if (!child || occupationList.length === 0) return;
    setOccupation((current) =>
      current.occupationId === null || allowedOccupations.some((item) => item.id === current.occupationId)
        ? current
        : { occupationId: null, occupationOther: '' },
    );
  }, [child, occupationList, allowedOccupations]);

  const changeOccupation = useCallback((next: ChildOccupationValue) => {
    setOccupation((previous) => {
      setOccupationErrors((errors) => ({
        occupationId: next.occupationId === previous.occupationId ? errors.occupationId : undefined,
        occupationOther: next.occupationOther === previous.occupationOther && next.occupationId === previous.occupationId ? errors.occupationOther : undefined,
      }));
      return next;
    });
  }, []);

  const afterBirthday = child ? (
    <>
      <ChildOccupationField occupations={allowedOccupations} value={occupation} errors={occupationErrors} disabled={busy} onChange={changeOccupation} />
      <InvitationField id={CHILD_INVITATION_ID} field={invitation.field} errors={invitation.messages} onSettle={invitation.settle} />
    </>
  ) : null;

  const formContext = useMemo<PostalSearchContext & Record<string, unknown>>(
    () => ({
      searchAddresses: async (postalNumber: string): Promise<AddressCandidate[] | null> => {
        try {
          const { addressList } = await api<{ addressList: AddressCandidate[] }>('/addresses', { query: { postalNumber } });
          return addressList;
        } catch (error) {
          if (statusOf(error) === 400) return null;
          fail(error);
          throw error;
        }
      },
      afterBirthday,
    }),
    [fail, afterBirthday],
  );

  const suggestFurigana = useFuriganaSuggestion(fail);

  const ruleErrors = useCallback(
    (current: FormData) => personalRuleErrors(current, { applicationType, bank, today: new Date() }),
    [applicationType, bank],
  );

  const onDataChange = useCallback(
    (next: FormData, previous: FormData, form: FormApi) => {
      setData(next);
      // A server message goes once the applicant changes what it was about.
      setFieldErrors((current) => {
        const kept = current.filter((error) => Object.is(next[error.field], previous[error.field]));
        return kept.length === current.length ? current : kept;
      });
      const patch = addressModePatch(next, previous, bank.DEFAULT_TEMP_ADDRESS_PREFECTURE);
      if (patch) form.patch(patch);
    },
    [bank.DEFAULT_TEMP_ADDRESS_PREFECTURE],
  );

  const { noMatchingAddress, purposeOther, distanceReason } = visibleFieldsOf(data, bank);
  const uiSchema = useMemo(() => {
    const base = personalUiSchema({ noMatchingAddress, purposeOther, distanceReason, bank, applicationType });
    return child ? { ...base, 'ui:ObjectFieldTemplate': ChildPersonalFieldsTemplate } : base;
  }, [noMatchingAddress, purposeOther, distanceReason, bank, applicationType, child]);

  /**
   * The child's own errors (from the page or a 400) at their fields: the first of them, in the
   * page's order (occupation, その他, invitation code), takes the focus.
   */
  const showChildErrors = (errors: ChildOccupationErrors, invitationBlocks: boolean) => {
    setOccupationErrors(errors);
    const target = errors.occupationId
      ? CHILD_OCCUPATION_ID
      : errors.occupationOther
        ? CHILD_OCCUPATION_OTHER_ID
        : invitationBlocks
          ? CHILD_INVITATION_ID
          : null;
    if (target) focusLater(target);
  };

  const submit = async (formData: FormData) => {
    if (child) {
      const errors = childOccupationErrors(occupation, allowedOccupations);
      const invitationBlocks = invitation.blocks();
      if (errors.occupationId || errors.occupationOther || invitationBlocks) {
        showChildErrors(errors, invitationBlocks);
        return;
      }
    }
    setBusy(true);
    setFieldErrors([]);
    setOccupationErrors({});
    clearNotice();
    try {
      await api('/applications/personal', { method: 'POST', body: bodyOf(formData, bank) });
      if (child) {
        const body = childWorkplaceBody(occupation, allowedOccupations, invitation.verified());
        await api('/applications/workplace', { method: 'POST', body });
      }
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
        if (child && (occupationAnswer.occupationId || occupationAnswer.occupationOther || invitationRefused)) {
          showChildErrors(occupationAnswer, invitationRefused);
        }
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

  if (!initialData) {
    return (
      <p className="loading" role="status">
        読み込み中です…
      </p>
    );
  }

  return (
    <section className="stack">
      <p className="form-intro">
        {applicationType === 'CHILD' ? 'お子さまの情報を入力してください。' : 'お客さまの情報を入力してください。'}
        本人確認書類（運転免許証・マイナンバーカードなど）に記載のとおりご入力ください。
      </p>
      {notice}
      <SchemaForm
        schemaName={formOf(page)}
        initialData={initialData}
        uiSchema={uiSchema}
        submitLabel="次へ"
        busy={busy}
        fieldErrors={fieldErrors}
        formContext={formContext}
        onDataChange={onDataChange}
        ruleErrors={ruleErrors}
        onFieldBlur={suggestFurigana}
        errorTargets={ERROR_TARGETS}
        onSubmit={submit}
      />
      <BackButton send={send} disabled={busy} />
    </section>
  );
}
