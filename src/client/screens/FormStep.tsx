import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { BankLinks } from '../../domain/bank/types';
import { pageAfter } from '../../domain/flow/model';
import type { ApplicationTypeName } from '../../domain/forms/format';
import { SchemaForm, type FieldError, type FormData } from '../forms/SchemaForm';
import { withBankWords } from '../forms/stepUi';
import { useLocation } from 'react-router-dom';
import { applicationForVisit, endVisit, type ApplicationsAnswer } from '../api/application';
import { useFormStep } from '../forms/useFormStep';
import { messages } from '../../domain/messages';
import { Toast } from '../ui/Toast';
import type { ClientSettings } from '../../domain/bank/types';
import type { ScreenProps } from '../runtime/screen';
import { Button } from '../ui/Button';
import { ExternalLink } from '../ui/ExternalLink';
import { BackButton, useStepPost, type StepRequest } from './stepActions';
import { useFailure } from './useFailure';

function isBankLink(links: BankLinks, key: string): key is keyof BankLinks {
  return Object.hasOwn(links, key);
}

/** Every rjsf form needs one submit; a page of several forms has one 「次へ」 below them all. */
const NO_SUBMIT = <></>;

/**
 * The generic form step: asks the forms meta.form names, each from its schema alone
 * (useFormStep). The schema's x-step says where it is posted and what the page says around
 * it; a choice filled from data that offers nothing is replaced by what its x-options.empty
 * says. A page of several forms (the child's personal data then occupation, the parent's data
 * then workplace) heads each with its title, checks them all on one 「次へ」 and posts them in
 * the flow's order; a 400 shows at the fields of the form refused.
 */
export default function FormStep({ flow, page, settings, send }: ScreenProps) {
  const fail = useFailure(flow);
  const { busy, fieldErrorsAt, notice, postInOrder } = useStepPost(send, fail);
  // Read once for every form of the page (each form's own load waits for it).
  const { key: visit } = useLocation();
  const [application] = useState(() => applicationForVisit(visit));
  useEffect(() => () => endVisit(visit), [visit]);
  const section = useRef<HTMLElement>(null);
  /** The valid answers of each form in this press of 「次へ」, and how to forget its draft once saved. */
  const pending = useRef(new Map<string, StepRequest & { saved: () => void }>());
  /** The answers of each form as they stand: a later form counts an earlier one's as saved (both are posted in order). */
  const [answers, setAnswers] = useState<Record<string, FormData>>({});
  const onAnswers = useCallback((form: string, data: FormData) => setAnswers((current) => ({ ...current, [form]: data })), []);
  // One object per change of an earlier form's answers: a later form offers its choices anew only then.
  const earlierOf = useMemo(() => page.forms.map((_, index) => (index === 0 ? undefined : answersBefore(page.forms, index, answers))), [page.forms, answers]);
  const { forms } = page;
  const several = forms.length > 1;
  const submitLabel = pageAfter(flow, page.path, 'NEXT')?.screen === 'Confirmation' ? '入力内容を確認する' : '次へ';

  const onValid = async (form: string, request: StepRequest, saved: () => void) => {
    pending.current.set(form, { ...request, saved });
    if (pending.current.size < forms.length) return;
    const requests = forms.flatMap((name) => pending.current.get(name) ?? []);
    pending.current.clear();
    if (await postInOrder(requests)) for (const request of requests) request.saved();
  };
  // Each form checks itself; the focus ends on the page's first error (SchemaForm keeps an earlier form's).
  const submitAll = () => {
    pending.current.clear();
    for (const form of section.current?.querySelectorAll('form') ?? []) form.requestSubmit();
  };

  return (
    <section className="stack" ref={section}>
      {notice}
      {forms.map((form, index) => (
        <FormPart
          key={form}
          form={form}
          path={page.path}
          application={application}
          earlier={earlierOf[index]}
          onAnswers={index < forms.length - 1 ? onAnswers : undefined}
          several={several}
          flowId={flow.config.id}
          applicationType={flow.config.meta.applicationType}
          settings={settings}
          fail={fail}
          busy={busy}
          submitLabel={submitLabel}
          fieldErrors={fieldErrorsAt}
          onValid={onValid}
        />
      ))}
      {several && (
        <Button loading={busy} onClick={submitAll}>
          {submitLabel}
        </Button>
      )}
      <BackButton send={send} disabled={busy} />
    </section>
  );
}

/** The answers of the forms before the index-th, merged (the later one's fields win, as they are stored later). */
function answersBefore(forms: readonly string[], index: number, answers: Readonly<Record<string, FormData>>): FormData {
  return Object.assign({}, ...forms.slice(0, index).map((form) => answers[form] ?? {})) as FormData;
}

interface FormPartProps {
  form: string;
  path: string;
  application: Promise<ApplicationsAnswer>;
  earlier: FormData | undefined;
  onAnswers: ((form: string, data: FormData) => void) | undefined;
  /** One of several forms on the page: headed by its title, ids prefixed by its name, no submit of its own. */
  several: boolean;
  /** The flow asking the form: its id (the form's overlay) and application type. */
  flowId: string;
  applicationType: ApplicationTypeName;
  settings: ClientSettings;
  fail: (error?: unknown) => void;
  busy: boolean;
  submitLabel: string;
  fieldErrors: (path: string) => FieldError[];
  onValid: (form: string, request: StepRequest, saved: () => void) => Promise<void>;
}

/** A reminder's text: a key of the catalogue (the lint refuses any other). */
function reminderText(key: string): string {
  const text: unknown = Object.hasOwn(messages, key) ? messages[key as keyof typeof messages] : undefined;
  return typeof text === 'string' ? text : '';
}

function FormPart({ form, path, application, earlier, onAnswers, several, flowId, applicationType, settings, fail, busy, submitLabel, fieldErrors, onValid }: FormPartProps) {
  const { bank } = settings;
  const reportAnswers = useMemo(() => onAnswers && ((data: FormData) => onAnswers(form, data)), [onAnswers, form]);
  const asked = useMemo(() => ({ form, flowId, applicationType }), [form, flowId, applicationType]);
  const state = useFormStep(asked, bank, fail, { path, application, earlier, onAnswers: reportAnswers });
  const [remind, setRemind] = useState(true);
  if (!state) return <p className="loading" role="status">読み込み中です…</p>;

  const { loaded, formProps, answersOf, dropDraft } = state;
  const { empty } = loaded;
  if (empty) {
    const link = empty.link && isBankLink(bank.links, empty.link.bankLink) ? { label: empty.link.label, href: bank.links[empty.link.bankLink] } : null;
    return (
      <>
        <p className="alert" role="status">
          {empty.message}
        </p>
        {link && (
          <p>
            <ExternalLink href={link.href}>{link.label}</ExternalLink>
          </p>
        )}
      </>
    );
  }

  const { intro, note, post } = loaded.step;
  // The title the confirmation page heads this form's answers with.
  const title = several ? loaded.step.summaryTitle : undefined;
  const { reminder } = loaded.step;
  const toast = reminder && loaded.remind && (
    <Toast open={remind} onClose={() => setRemind(false)}>
      {reminderText(reminder.message)}
    </Toast>
  );
  return (
    <>
      {title && <h2 className="section-title">{title}</h2>}
      {intro && <p>{withBankWords(intro, bank)}</p>}
      {note && <p className="note">{withBankWords(note, bank)}</p>}
      <SchemaForm
        {...formProps}
        idPrefix={several ? form : undefined}
        submitLabel={submitLabel}
        busy={busy}
        fieldErrors={fieldErrors(post)}
        beforeSubmit={several ? undefined : toast}
        onSubmit={(data: FormData) => onValid(form, { path: post, body: answersOf(data) }, dropDraft)}
      >
        {several ? NO_SUBMIT : undefined}
      </SchemaForm>
      {several && toast}
    </>
  );
}
