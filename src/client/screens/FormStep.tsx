import { useCallback, useEffect, useMemo, useState } from 'react';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { BankLinks, PublicBankConfig } from '../../domain/bank/types';
import { pageAfter } from '../../domain/flow/model';
import { runFormRules } from '../../domain/rules/registry';
import {
  formStepOf,
  isRecord,
  normalizeAnswers,
  optionFieldsOf,
  uiSchemaOf,
  type FormSchema,
  type FormStepDeclaration,
  type OptionsDeclaration,
} from '../../domain/schemas/form-step';
import { api } from '../api/client';
import type { ApplicationsAnswer } from '../api/application';
import { optionSources } from '../forms/options';
import { SchemaForm, type FieldError, type FormData } from '../forms/SchemaForm';
import { loadSchema } from '../forms/schemas';
import type { Choice } from '../forms/widgets/choices';
import { formOf, type ScreenProps } from '../runtime/screen';
import { ExternalLink } from '../ui/ExternalLink';
import { BackButton, useStepPost } from './stepActions';
import { useFailure } from './useFailure';

interface Loaded {
  schema: FormSchema;
  step: FormStepDeclaration;
  /** The choices of each field filled from bank data (x-options). */
  choices: Record<string, Choice[]>;
  /** A field whose source offers nothing and says what the page shows instead. */
  empty: OptionsDeclaration['empty'] | undefined;
  initialData: FormData;
  /** The application as stored, for rules across steps. */
  saved: Readonly<Record<string, unknown>>;
}

function isBankLink(links: BankLinks, key: string): key is keyof BankLinks {
  return Object.hasOwn(links, key);
}

/** The answers shown again: the form's stored document; a choice no longer offered is not preselected. */
function initialDataOf(schema: FormSchema, form: string, answer: ApplicationsAnswer, choices: Record<string, Choice[]>): FormData {
  const stored = answer.forms?.[form];
  const data = normalizeAnswers(schema, isRecord(stored) ? stored : {});
  for (const [field, offered] of Object.entries(choices)) {
    if (field in data && !offered.some((choice) => String(choice.value) === String(data[field]))) delete data[field];
  }
  return data;
}

/** The form's schema, its declaration and the choices of its x-options fields. */
async function loadForm(form: string, bank: PublicBankConfig): Promise<{ schema: FormSchema; step: FormStepDeclaration; choices: Record<string, Choice[]>; optionFields: ReturnType<typeof optionFieldsOf> }> {
  const schema = (await loadSchema(form)).schema as FormSchema;
  const step = formStepOf(schema);
  if (!step) throw new Error(`schemas/${form}.schema.json has no "x-step": the FormStep screen cannot post it`);
  const optionFields = optionFieldsOf(schema);
  const offered = await Promise.all(optionFields.map(({ options }) => optionSources[options.source](bank)));
  return { schema, step, optionFields, choices: Object.fromEntries(optionFields.map(({ field }, index) => [field, offered[index] ?? []])) };
}

/** Everything the page needs, with one GET of the application, loaded side by side with the form. */
async function loadStep(form: string, bank: PublicBankConfig): Promise<Loaded> {
  const [{ schema, step, choices, optionFields }, answer] = await Promise.all([loadForm(form, bank), api<ApplicationsAnswer>('/applications')]);
  const empty = optionFields.find(({ field, options }) => options.empty !== undefined && (choices[field] ?? []).length === 0)?.options.empty;
  return { schema, step, choices, empty, initialData: initialDataOf(schema, form, answer, choices), saved: { ...answer.application } };
}

/**
 * The generic form step: asks the form meta.form names, from its schema alone. The schema's
 * x-step says where it is posted and what the page says around it, x-ui how its fields look,
 * x-options which fields are filled from the bank's data (and what to say when there is none);
 * its titles and oneOf titles are the labels. The answers shown again are the stored ones.
 */
export default function FormStep({ flow, page, settings, send }: ScreenProps) {
  const fail = useFailure(flow);
  const form = formOf(page);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const { busy, fieldErrors, notice, post } = useStepPost(send, fail);
  const applicationType = flow.config.meta.applicationType;

  useEffect(() => {
    let alive = true;
    setLoaded(null);
    loadStep(form, settings.bank).then(
      (result) => alive && setLoaded(result),
      (error: unknown) => alive && fail(error),
    );
    return () => {
      alive = false;
    };
  }, [form, fail, settings.bank]);

  const uiSchema = useMemo<UiSchema<FormData, RJSFSchema>>(() => {
    if (!loaded) return {};
    const ui: Record<string, unknown> = { ...uiSchemaOf(loaded.schema) };
    for (const [field, choices] of Object.entries(loaded.choices)) {
      const own = isRecord(ui[field]) ? ui[field] : {};
      const options = isRecord(own['ui:options']) ? own['ui:options'] : {};
      ui[field] = { ...own, 'ui:options': { ...options, choices } };
    }
    return ui;
  }, [loaded]);

  // The schema and the rules judge the answers as the server will: normalised (SchemaForm's
  // own validation, so that the schema sees them normalised too).
  const normalize = useCallback((data: FormData): FormData => (loaded ? normalizeAnswers(loaded.schema, data) : data), [loaded]);
  const ruleErrors = useCallback(
    (answers: FormData): FieldError[] =>
      loaded && loaded.step.rules.length > 0 ? runFormRules(loaded.step.rules, answers, { applicationType, bank: settings.bank, today: new Date(), saved: loaded.saved }) : [],
    [loaded, applicationType, settings.bank],
  );

  const back = <BackButton send={send} disabled={busy} />;

  if (!loaded) return <p className="loading" role="status">読み込み中です…</p>;

  const { schema, step, empty } = loaded;

  if (empty) {
    const link = empty.link && isBankLink(settings.bank.links, empty.link.bankLink) ? { label: empty.link.label, href: settings.bank.links[empty.link.bankLink] } : null;
    return (
      <section className="stack">
        <p className="alert" role="status">
          {empty.message}
        </p>
        {link && (
          <p>
            <ExternalLink href={link.href}>{link.label}</ExternalLink>
          </p>
        )}
        {back}
      </section>
    );
  }

  const note = step.notes?.[applicationType]?.replaceAll('{bankName}', settings.bank.NAME);
  const submit = (data: FormData) => post(step.post, normalizeAnswers(schema, data));

  return (
    <section className="stack">
      {step.intro && <p>{step.intro}</p>}
      {note && <p className="note">{note}</p>}
      {notice}
      <SchemaForm
        schemaName={form}
        initialData={loaded.initialData}
        uiSchema={uiSchema}
        submitLabel={pageAfter(flow, page.path, 'NEXT')?.screen === 'Confirmation' ? '入力内容を確認する' : '次へ'}
        busy={busy}
        fieldErrors={fieldErrors}
        ownValidation
        normalize={normalize}
        ruleErrors={ruleErrors}
        onSubmit={submit}
      />
      {back}
    </section>
  );
}
