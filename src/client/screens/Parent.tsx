import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { normalizeAnswers, uiSchemaOf, type FormSchema } from '../../domain/schemas/form-step';
import { occupationUi } from '../forms/uiFragments';
import { loadSchema } from '../forms/schemas';
import { isEmptyPhone, normalizeWorkplaceName, OTHER_OCCUPATION_NAME, parentRuleErrors, workplaceRuleErrors } from '../../domain/rules';
import { fieldErrorsOfAnswer, type ApplicationsAnswer } from '../api/application';
import { api, statusOf } from '../api/client';
import { useFuriganaSuggestion } from '../forms/furigana';
import { SchemaForm, type FieldError, type FormData } from '../forms/SchemaForm';
import { useLoaded } from '../runtime/useLoaded';
import { formOf, type ScreenProps } from '../runtime/screen';
import { Button } from '../ui/Button';
import { BackButton, stepLockedMessage, useStepNotice } from './stepActions';
import { useFailure } from './useFailure';
import { generalOccupations, type Occupation } from './workplace/model';

const NO_ERRORS: FieldError[] = [];
/** The two forms' id prefixes: one page, so their control ids (parent_lastName, parent-workplace_occupationId) must differ. */
export const PARENT_ID_PREFIX = 'parent';
export const PARENT_WORKPLACE_ID_PREFIX = 'parent-workplace';
/** Every rjsf form needs one submit; ours is the single 「次へ」 below both parts. */
const NO_SUBMIT = <></>;

/** The parent's answers shown again (the rest of the schema is the server's: bankCode, the proxy reason). */
const PERSONAL_FIELDS = ['lastName', 'firstName', 'kanaLastName', 'kanaFirstName', 'birthday', 'relationship', 'mobilePhoneNumber', 'phoneNumber'];
const WORKPLACE_FIELDS = ['occupationOther', 'workplaceName', 'workplacePhoneNumber'];

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
const orNull = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

interface Child {
  lastName: string;
  kanaLastName: string;
}

interface Loaded {
  child: Child;
  bankCode: string;
  occupations: Occupation[];
  personal: FormData;
  workplace: FormData;
  /** schemas/parent.schema.json: its layout (x-ui) and how its answers are normalised. */
  personalSchema: FormSchema;
}

async function loadParentStep(form: string): Promise<Loaded> {
  const [{ application, applicationParent }, { occupationList }, { schema }] = await Promise.all([
    api<ApplicationsAnswer>('/applications'),
    api<{ occupationList: Occupation[] }>('/occupations'),
    loadSchema(form),
  ]);
  const occupations = generalOccupations(occupationList);
  const saved = applicationParent ?? {};
  const personal: FormData = { proxyApplicationReason: 'MINOR' };
  for (const field of PERSONAL_FIELDS) if (text(saved[field]) !== '') personal[field] = saved[field];
  const workplace: FormData = {};
  const occupation = occupations.find((item) => item.id === saved.occupationId);
  if (occupation) workplace.occupationId = occupation.id;
  for (const field of WORKPLACE_FIELDS) if (text(saved[field]) !== '') workplace[field] = saved[field];
  return {
    child: { lastName: text(application?.lastName), kanaLastName: text(application?.kanaLastName) },
    bankCode: text(application?.bankCode),
    occupations,
    personal,
    workplace,
    personalSchema: schema as FormSchema,
  };
}

/**
 * /child/parent (step 2 of 12): the parent applying as proxy — name, kana, birthday, relationship,
 * phones, the proxy reason (one value) — and the parent's occupation and workplace. Two forms
 * (parent.schema.json and parent-workplace.schema.json, as the two posts) under one 「次へ」:
 * both are validated, then the personal part is posted, then the workplace part, then NEXT.
 * (The child flow's invitation code is the child's, on /child/personal.)
 */
export default function Parent(props: ScreenProps) {
  const fail = useFailure(props.flow);
  const form = formOf(props.page);
  const loaded = useLoaded(() => loadParentStep(form), [form], fail);
  if (!loaded) return <p className="loading" role="status">読み込み中です…</p>;
  return <ParentForm {...props} loaded={loaded} fail={fail} />;
}

function ParentForm({ page, send, settings, loaded, fail }: ScreenProps & { loaded: Loaded; fail: (error?: unknown) => void }) {
  const { child, occupations } = loaded;
  const [busy, setBusy] = useState(false);
  const [personalErrors, setPersonalErrors] = useState<FieldError[]>(NO_ERRORS);
  const [workplaceErrors, setWorkplaceErrors] = useState<FieldError[]>(NO_ERRORS);
  const { notice, show: showNotice, clear: clearNotice } = useStepNotice();
  const [occupationId, setOccupationId] = useState<unknown>(loaded.workplace.occupationId);
  const bankCode = loaded.bankCode || settings.bank.code;
  const personalInitial = useMemo(() => ({ ...loaded.personal, bankCode }), [loaded.personal, bankCode]);
  const personalRef = useRef<HTMLDivElement>(null);
  const workplaceRef = useRef<HTMLDivElement>(null);
  /** The valid data of each part in this press of 「次へ」. */
  const submitted = useRef<{ personal: FormData | null; workplace: FormData | null }>({ personal: null, workplace: null });

  const suggestFurigana = useFuriganaSuggestion(fail);
  const occupation = occupations.find((item) => item.id === occupationId);
  const personalRules = useCallback((data: FormData) => parentRuleErrors(data, { child, today: new Date() }), [child]);
  const workplaceRules = useCallback(
    (data: FormData) => {
      const chosen = occupations.find((item) => item.id === data.occupationId);
      return chosen ? workplaceRuleErrors(data, { occupation: chosen }) : [];
    },
    [occupations],
  );

  const personalUi = useMemo(() => uiSchemaOf(loaded.personalSchema) as UiSchema<FormData, RJSFSchema>, [loaded.personalSchema]);

  const requirement = occupation?.workplaceRequired ? 'required' : 'optional';
  const workplaceUi = useMemo<UiSchema<FormData, RJSFSchema>>(
    () => ({
      'ui:order': ['occupationId', 'occupationOther', 'workplaceName', 'workplacePhoneNumber', '*'],
      ...occupationUi(occupations, occupation),
      workplaceName: {
        'ui:widget': 'NormalizedTextWidget',
        'ui:title': 'お勤め先名',
        'ui:placeholder': '例：株式会社〇〇',
        'ui:options': { normalize: normalizeWorkplaceName, autocomplete: 'organization', requirement },
      },
      workplacePhoneNumber: { 'ui:widget': 'PhoneWidget', 'ui:title': 'お勤め先電話番号', 'ui:options': { group: true, requirement } },
    }),
    [occupations, occupation, requirement],
  );

  const postBoth = async () => {
    const { personal, workplace } = submitted.current;
    if (!personal || !workplace) return;
    submitted.current = { personal: null, workplace: null };
    setBusy(true);
    setPersonalErrors(NO_ERRORS);
    setWorkplaceErrors(NO_ERRORS);
    clearNotice();
    const chosen = occupations.find((item) => item.id === workplace.occupationId);
    const workplacePhone = text(workplace.workplacePhoneNumber);
    let step: 'personal' | 'workplace' = 'personal';
    try {
      await api('/applications/personal/parent', {
        method: 'POST',
        // As the server reads it: trimmed, each field's x-normalize, empty answers left out.
        body: normalizeAnswers(loaded.personalSchema, { ...personal, bankCode, proxyApplicationReason: 'MINOR' }),
      });
      step = 'workplace';
      await api('/applications/workplace/parent', {
        method: 'POST',
        body: {
          occupationId: Number(workplace.occupationId),
          occupationOther: chosen?.name === OTHER_OCCUPATION_NAME ? orNull(text(workplace.occupationOther).trim()) : null,
          workplaceName: normalizeWorkplaceName(text(workplace.workplaceName)) || null,
          workplacePhoneNumber: isEmptyPhone(workplacePhone) ? null : workplacePhone,
        },
      });
      send({ type: 'NEXT' });
    } catch (error) {
      const locked = stepLockedMessage(error);
      if (statusOf(error) === 400) (step === 'personal' ? setPersonalErrors : setWorkplaceErrors)(fieldErrorsOfAnswer(error));
      else if (locked) showNotice(locked);
      else fail(error);
    } finally {
      setBusy(false);
    }
  };

  /** Validates both parts; the focus ends on the first error of the page (SchemaForm keeps an earlier form's). */
  const next = () => {
    submitted.current = { personal: null, workplace: null };
    personalRef.current?.querySelector('form')?.requestSubmit();
    workplaceRef.current?.querySelector('form')?.requestSubmit();
  };

  return (
    <section className="stack">
      <p className="form-intro">
        お子さまの親権者さま（お申込みになる方）の情報を入力してください。本人確認書類に記載のとおりご入力ください。
      </p>
      {notice}
      <h2 className="section-title">親権者さまの情報</h2>
      <div ref={personalRef}>
        <SchemaForm
          schemaName={formOf(page)}
          idPrefix={PARENT_ID_PREFIX}
          initialData={personalInitial}
          uiSchema={personalUi}
          submitLabel="次へ"
          busy={busy}
          fieldErrors={personalErrors}
          ruleErrors={personalRules}
          onFieldBlur={suggestFurigana}
          onSubmit={(data) => {
            submitted.current.personal = data;
            void postBoth();
          }}
        >
          <div className="field">
            <p className="field__label" id="proxy-reason-label">
              代理申込みの理由
            </p>
            <p aria-labelledby="proxy-reason-label">お子さまが未成年のため</p>
          </div>
          {NO_SUBMIT}
        </SchemaForm>
      </div>
      <h2 className="section-title">親権者さまのご職業・お勤め先</h2>
      <div ref={workplaceRef}>
        <SchemaForm
          schemaName="parent-workplace"
          idPrefix={PARENT_WORKPLACE_ID_PREFIX}
          initialData={loaded.workplace}
          uiSchema={workplaceUi}
          submitLabel="次へ"
          busy={busy}
          fieldErrors={workplaceErrors}
          ruleErrors={workplaceRules}
          onDataChange={(data) => setOccupationId(data.occupationId)}
          onSubmit={(data) => {
            submitted.current.workplace = data;
            void postBoth();
          }}
        >
          {NO_SUBMIT}
        </SchemaForm>
      </div>
      <Button loading={busy} onClick={next}>
        次へ
      </Button>
      <BackButton send={send} disabled={busy} />
    </section>
  );
}
