import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { normalizeKanaName, personalRuleErrors } from '../../domain/rules';
import { fieldErrorsOfAnswer } from '../api/application';
import { api, messageOf, statusOf } from '../api/client';
import { SchemaForm, type FieldError, type FormApi, type FormData } from '../forms/SchemaForm';
import type { AddressCandidate, PostalSearchContext } from '../forms/widgets/PostalAddressWidget';
import type { ScreenProps } from '../runtime/screen';
import {
  addressModePatch,
  bodyOf,
  ERROR_TARGETS,
  FURIGANA_TARGETS,
  initialDataOf,
  isFuriganaTarget,
  personalUiSchema,
  visibleFieldsOf,
} from './personal/form';
import {
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
import { BackButton } from './stepActions';
import { useFailure } from './useFailure';

interface ApplicationsAnswer {
  application: Record<string, unknown> | null;
  applicationParent: Record<string, unknown> | null;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * /personal and /child/personal: name, kana, birthday, gender, phones, address (postal code
 * search or a temporary address), purposes of use and, for a bank that asks, the reason for
 * opening an account far from home. What was entered before is shown again (back from the
 * next step, or a reload); furigana is suggested from the name.
 */
export default function Personal({ flow, settings, send }: ScreenProps) {
  const { bank } = settings;
  const applicationType = flow.config.meta.applicationType;
  const [initialData, setInitialData] = useState<FormData | null>(null);
  const [data, setData] = useState<FormData>({});
  const [fieldErrors, setFieldErrors] = useState<FieldError[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const child = applicationType === 'CHILD';
  /** Child flow: the child's own occupation (outside the personal schema), its list and errors. */
  const [occupationList, setOccupationList] = useState<Occupation[]>([]);
  const [occupation, setOccupation] = useState<ChildOccupationValue>({ occupationId: null, occupationOther: '' });
  const [occupationErrors, setOccupationErrors] = useState<ChildOccupationErrors>({});
  /** The furigana last suggested per kana field: a kana field still holding it was not typed by the applicant. */
  const suggested = useRef<Record<string, string>>({});

  /** A failed call: 401 is handled by the client (session error page); anything else is a system error. */
  const fail = useFailure(flow);

  useEffect(() => {
    let alive = true;
    Promise.all([
      api<ApplicationsAnswer>('/applications'),
      child ? api<{ occupationList: Occupation[] }>('/occupations') : Promise.resolve(null),
    ]).then(
      ([{ application }, occupations]) => {
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
        setInitialData(initial);
        setData(initial);
      },
      (error: unknown) => alive && fail(error),
    );
    return () => {
      alive = false;
    };
  }, [fail, child]);

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
    <ChildOccupationField occupations={allowedOccupations} value={occupation} errors={occupationErrors} disabled={busy} onChange={changeOccupation} />
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

  const suggestFurigana = useCallback(
    async (field: string, form: FormApi) => {
      const kanaField = FURIGANA_TARGETS[field];
      if (!kanaField) return;
      const name = text(form.getData()[field]).trim();
      if (!isFuriganaTarget(name)) return;
      const typedByApplicant = (current: FormData) => {
        const kana = text(current[kanaField]);
        return kana !== '' && kana !== suggested.current[kanaField];
      };
      if (typedByApplicant(form.getData())) return;
      let kana: string;
      try {
        ({ kana } = await api<{ kana: string }>('/furigana', { query: { kanji: name } }));
      } catch (error) {
        fail(error);
        return;
      }
      const suggestion = normalizeKanaName(kana);
      form.patch((current) => {
        // The name changed meanwhile, or the applicant typed the kana themselves: leave it.
        if (text(current[field]).trim() !== name || typedByApplicant(current) || suggestion === '') return {};
        suggested.current[kanaField] = suggestion;
        return { [kanaField]: suggestion };
      });
    },
    [fail],
  );

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

  /** Occupation errors (from the page or a 400) shown at the select, which takes the focus. */
  const showOccupationErrors = (errors: ChildOccupationErrors) => {
    setOccupationErrors(errors);
    const target = errors.occupationId ? CHILD_OCCUPATION_ID : errors.occupationOther ? CHILD_OCCUPATION_OTHER_ID : null;
    if (target) window.setTimeout(() => document.getElementById(target)?.focus(), 0);
  };

  const submit = async (formData: FormData) => {
    if (child) {
      const errors = childOccupationErrors(occupation, allowedOccupations);
      if (errors.occupationId || errors.occupationOther) {
        showOccupationErrors(errors);
        return;
      }
    }
    setBusy(true);
    setFieldErrors([]);
    setOccupationErrors({});
    setNotice(null);
    try {
      await api('/applications/personal', { method: 'POST', body: bodyOf(formData, bank) });
      if (child) await api('/applications/workplace', { method: 'POST', body: childWorkplaceBody(occupation, allowedOccupations) });
      send({ type: 'NEXT' });
    } catch (error) {
      if (statusOf(error) === 400) {
        const all = fieldErrorsOfAnswer(error);
        const isOccupation = (field: string) => field === 'occupationId' || field === 'occupationOther';
        const errors = all.filter((item) => !isOccupation(item.field));
        const occupationAnswer: ChildOccupationErrors = {};
        for (const item of all) if (isOccupation(item.field)) occupationAnswer[item.field as keyof ChildOccupationErrors] ??= item.message;
        if (child && (occupationAnswer.occupationId || occupationAnswer.occupationOther)) showOccupationErrors(occupationAnswer);
        setFieldErrors(errors);
        if (all.length === 0) setNotice(messageOf(error) ?? '入力内容に誤りがあります。ご確認ください。');
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
      {notice && (
        <p className="alert" role="alert">
          {notice}
        </p>
      )}
      <SchemaForm
        schemaName="personal"
        initialData={initialData}
        uiSchema={uiSchema}
        submitLabel="次へ"
        busy={busy}
        fieldErrors={fieldErrors}
        formContext={formContext}
        onDataChange={onDataChange}
        ruleErrors={ruleErrors}
        onFieldBlur={(field, form) => void suggestFurigana(field, form)}
        errorTargets={ERROR_TARGETS}
        onSubmit={submit}
      />
      <BackButton send={send} disabled={busy} />
    </section>
  );
}
