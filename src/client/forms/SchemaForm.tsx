import { useEffect, useImperativeHandle, useMemo, useRef, useState, type ReactNode, type Ref } from 'react';
import Form, { type IChangeEvent } from '@rjsf/core';
import type { ErrorSchema, RJSFSchema, RJSFValidationError, UiSchema } from '@rjsf/utils';
import type { FormApi, FormData, SchemaFormContext } from './context';
import { loadSchema } from './schemas';
import { useLoaded } from '../runtime/useLoaded';
import { BaseInputTemplate, FieldErrorTemplate, FieldTemplate, FormSubmitButton, ObjectFieldTemplate, SubmitButton } from './templates';
import { widgets } from './widgets';

import type { FieldError } from '../../domain/rules/field-error';
export type { FieldError };

export type { FormApi, FormData, SchemaFormContext } from './context';
export { schemaFormContextOf } from './context';

export interface SchemaFormProps {
  /** Name of schemas/<name>.schema.json. */
  schemaName: string;
  uiSchema?: UiSchema<FormData, RJSFSchema>;
  initialData?: FormData;
  submitLabel: string;
  /** Called with valid data; may reject with field errors from the server (a 400). */
  onSubmit: (data: FormData) => Promise<unknown> | void;
  /** Field errors to show (e.g. from the server's 400 answer). */
  fieldErrors?: FieldError[];
  busy?: boolean;
  /** Replaces the submit button (a page whose own button submits several forms). */
  children?: ReactNode;
  /** Shown inside the form right above its submit button (e.g. the page's reminder toast). */
  beforeSubmit?: ReactNode;
  /** Extra context for the widgets, next to `form` (see SchemaFormContext); keep it the same object between renders. */
  formContext?: Record<string, unknown>;
  /** Every change of the data (a screen showing fields conditionally mirrors the data with it). */
  onDataChange?: (data: FormData, previous: FormData, form: FormApi) => void;
  /**
   * Everything the data fail, from what the schema said of them (the form step's stepErrors:
   * the errors of fields not asked dropped, the conditions' and the rules' added): run on blur
   * for the fields the applicant has left and on submit for all, blocking the submit. Without
   * it, the schema's errors are the form's.
   */
  judge?: (data: FormData, schemaErrors: FieldError[]) => FieldError[];
  /** After a field was left and its last change applied (normalisation on blur included). */
  onFieldBlur?: (field: string, form: FormApi) => void;
  /**
   * Errors of fields that have no control of their own are shown at (and focus) another one,
   * e.g. { addressCode: 'postalNumber' }: the address code is set by the postal code search.
   */
  errorTargets?: Record<string, string>;
  /** Receives the form handle (to patch data from outside, e.g. after a lookup). */
  apiRef?: Ref<FormApi>;
  /**
   * Validate here on submit (schema and judge) instead of through rjsf, so that every error
   * shown is one this form recomputes when a field is left. For screens whose widgets keep state
   * outside the form data (a code applied by a button, an answer that shows more fields): rjsf
   * would keep their submit errors until the next submit, as their data never changes.
   */
  ownValidation?: boolean;
  /**
   * What the schema and the rules judge instead of the raw data (with ownValidation): e.g. the
   * form step's normalizeAnswers, so that " 090-1234-5678 " is judged as the server will judge it.
   */
  normalize?: (data: FormData) => FormData;
  /**
   * First part of every control id (rjsf's Form.idPrefix; default "root"): two forms on one page
   * need different ones, or their ids collide and a label can name the other form's input.
   */
  idPrefix?: string;
}

const NO_ERRORS: FieldError[] = [];
export const DEFAULT_ID_PREFIX = 'root';
/** rjsf's idSeparator, which we keep: our widgets add their own parts after "__" or "-". */
const ID_SEPARATOR = '_';
const NO_TARGETS: Record<string, string> = {};
/**
 * An applicant's answer is never filled in for them: rjsf would otherwise default a required
 * boolean to false (the seal choice) and a `const` to its value (the address check ticked).
 */
const DEFAULT_FORM_STATE = { requiredBooleanDefault: 'skip', constAsDefaults: 'never' } as const;
const templates = { FieldTemplate, FieldErrorTemplate, BaseInputTemplate, ObjectFieldTemplate, ButtonTemplates: { SubmitButton } };

/** First segment of an rjsf error property (".mailAddress" or "mailAddress.0" -> "mailAddress"). */
export function fieldOfProperty(property: string | undefined): string {
  return (property ?? '').replace(/^\./, '').split('.')[0] ?? '';
}

/**
 * The field of a control id: "root_birthday", "root_birthday__month" and "root_gender-0" (rjsf's
 * optionId) -> "birthday", "gender"; with another prefix, "parent_birthday" -> "birthday".
 */
export function fieldOfId(id: string, idPrefix = DEFAULT_ID_PREFIX): string {
  const start = `${idPrefix}${ID_SEPARATOR}`;
  if (!id.startsWith(start)) return '';
  return id.slice(start.length).split(/[_-]/)[0] ?? '';
}

/** An if/then/else adds an "if" error beside the failed branch's own ones: it says nothing to the applicant. */
const dropConditionalNoise = (errors: RJSFValidationError[]) => errors.filter((error) => error.name !== 'if');

/**
 * ajv-errors reports a `required` message (errorMessage.required) at the object, not at the
 * missing property; the property is in the errors it replaced. Put the message at the field.
 */
function missingPropertyOf(error: RJSFValidationError): string | undefined {
  if (error.name !== 'errorMessage' || fieldOfProperty(error.property) !== '') return undefined;
  const replaced: unknown = (error.params as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(replaced)) return undefined;
  for (const entry of replaced) {
    const missing: unknown = (entry as { params?: { missingProperty?: unknown } } | null)?.params?.missingProperty;
    if (typeof missing === 'string') return missing;
  }
  return undefined;
}

function transformErrorsWith(targets: Record<string, string>) {
  return (errors: RJSFValidationError[]): RJSFValidationError[] => {
    const seen = new Set<string>();
    const result: RJSFValidationError[] = [];
    for (const error of dropConditionalNoise(errors)) {
      const field = missingPropertyOf(error) ?? fieldOfProperty(error.property);
      const target = targets[field] ?? field;
      const key = `${target}\u0000${error.message ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const property = target === field && missingPropertyOf(error) === undefined ? error.property : `.${target}`;
      result.push({ ...error, property });
    }
    return result;
  };
}

function retarget(errors: FieldError[], targets: Record<string, string>): FieldError[] {
  const seen = new Set<string>();
  return errors
    .map(({ field, message }) => ({ field: targets[field] ?? field, message }))
    .filter(({ field, message }) => {
      const key = `${field}\u0000${message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

const FOCUSABLE = 'input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), [tabindex]';

/**
 * Whether the focus is already on a field in error of another form earlier on the page: a page
 * of two forms validated by one button (/child/parent) keeps it there, whichever form rjsf
 * reports first, so the focus ends on the page's first error.
 */
function earlierErrorHasFocus(form: HTMLFormElement, target: HTMLElement): boolean {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || form.contains(active) || !active.closest('form')) return false;
  const inError = active.getAttribute('aria-invalid') === 'true' || active.closest('.field--error') !== null;
  return inError && (active.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
}

/**
 * Moves the focus to the first control, in the order of the page, of the fields in error
 * (the first radio button of a group, the year select of the birthday, the postal code input).
 */
function focusFirstOf(form: HTMLFormElement | null, fields: string[], idPrefix: string): void {
  if (!form || fields.length === 0) return;
  const wanted = new Set(fields);
  for (const element of form.querySelectorAll<HTMLElement>(`[id^="${idPrefix}${ID_SEPARATOR}"]`)) {
    if (element.matches(FOCUSABLE) && wanted.has(fieldOfId(element.id, idPrefix)) && !element.closest('[hidden]')) {
      if (!earlierErrorHasFocus(form, element)) element.focus();
      return;
    }
  }
}

function toErrorSchema(errors: FieldError[]): ErrorSchema<FormData> {
  const schema: Record<string, { __errors: string[] }> = {};
  for (const { field, message } of errors) {
    const entry = (schema[field] ??= { __errors: [] });
    entry.__errors.push(message);
  }
  return schema as ErrorSchema<FormData>;
}

/**
 * A form drawn from a JSON Schema by rjsf with our widgets and templates. Validation runs on
 * blur for the fields the applicant has left, and on submit for all of them; on submit the
 * first field in error gets the focus (spec section 5).
 */
export function SchemaForm({
  schemaName,
  uiSchema,
  initialData,
  submitLabel,
  onSubmit,
  fieldErrors = NO_ERRORS,
  busy = false,
  children,
  beforeSubmit,
  formContext,
  onDataChange,
  judge,
  onFieldBlur,
  errorTargets = NO_TARGETS,
  apiRef,
  ownValidation = false,
  normalize,
  idPrefix = DEFAULT_ID_PREFIX,
}: SchemaFormProps) {
  const [failed, setFailed] = useState(false);
  const loaded = useLoaded(() => loadSchema(schemaName), [schemaName], () => setFailed(true));
  const [formData, setFormData] = useState<FormData>(initialData ?? {});
  const [blurErrors, setBlurErrors] = useState<FieldError[]>([]);
  const formRef = useRef<Form<FormData, RJSFSchema>>(null);
  // The latest data and settings, for callbacks that run after an await or a timeout.
  const dataRef = useRef<FormData>(formData);
  const touchedRef = useRef(new Set<string>());
  const latest = useRef({ loaded, judge, onFieldBlur, onDataChange, errorTargets, idPrefix, normalize });
  latest.current = { loaded, judge, onFieldBlur, onDataChange, errorTargets, idPrefix, normalize };

  const api = useMemo<FormApi>(
    () => ({
      getData: () => dataRef.current,
      patch: (update) => {
        const form = formRef.current;
        if (!form) return;
        const current = dataRef.current;
        const changes = typeof update === 'function' ? update(current) : update;
        const changed = Object.entries(changes).filter(([key, value]) => !Object.is(current[key], value));
        if (changed.length === 0) return;
        dataRef.current = { ...current, ...Object.fromEntries(changed) };
        // setFieldValue is typed with the whole form's data type; a field's value is one part of it.
        for (const [key, value] of changed) form.setFieldValue(key, value as FormData);
      },
    }),
    [],
  );
  useImperativeHandle(apiRef, () => api, [api]);

  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  /** Schema and rule errors of `data`, addressed to the fields that show them. */
  const errorsOf = (raw: FormData): FieldError[] => {
    const { loaded: current, judge: judged, errorTargets: targets, normalize: prepare } = latest.current;
    if (!current) return [];
    const data = prepare ? prepare(raw) : raw;
    const clean = JSON.parse(JSON.stringify(data)) as FormData; // undefined values out, as rjsf does
    // Each error at its own field: the form step's judgement reads which fields are asked.
    const { errors } = current.validator.validateFormData(clean, current.schema, undefined, transformErrorsWith({}));
    const schemaErrors = errors.map((error) => ({ field: fieldOfProperty(error.property), message: error.message ?? '' }));
    return retarget(judged ? judged(data, schemaErrors) : schemaErrors, targets);
  };

  const revalidateTouched = () => {
    const fields = touchedRef.current;
    setBlurErrors(errorsOf(dataRef.current).filter((error) => fields.has(error.field)));
  };

  // Errors from the server (a 400) take the focus like the browser's own do; a screen dropping
  // the ones the applicant has since corrected (a shorter list) does not move the focus.
  const shownFieldErrors = useRef<FieldError[]>(NO_ERRORS);
  useEffect(() => {
    const before = shownFieldErrors.current;
    shownFieldErrors.current = fieldErrors;
    const isNew = fieldErrors.some((error) => !before.some((old) => old.field === error.field && old.message === error.message));
    if (!isNew) return;
    focusFirstOf(
      formRef.current?.formElement.current ?? null,
      retarget(fieldErrors, latest.current.errorTargets).map((e) => e.field),
      latest.current.idPrefix,
    );
  }, [fieldErrors]);

  // A server message goes once the applicant changes what it was about (until the next answer).
  const [changedSinceAnswer, setChangedSinceAnswer] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => setChangedSinceAnswer(new Set()), [fieldErrors]);
  const standingFieldErrors = useMemo(() => fieldErrors.filter((error) => !changedSinceAnswer.has(error.field)), [fieldErrors, changedSinceAnswer]);
  const extraErrors = useMemo(
    () => toErrorSchema(retarget([...blurErrors, ...standingFieldErrors], errorTargets)),
    [blurErrors, standingFieldErrors, errorTargets],
  );
  const shownSubmitLabel = busy ? '送信中です…' : submitLabel;
  const mergedUiSchema = useMemo<UiSchema<FormData, RJSFSchema>>(
    () => ({
      ...uiSchema,
      'ui:submitButtonOptions': { submitText: shownSubmitLabel, props: { disabled: busy } },
    }),
    [uiSchema, shownSubmitLabel, busy],
  );
  const context = useMemo<SchemaFormContext>(() => ({ ...formContext, form: api }), [formContext, api]);
  const transformErrors = useMemo(() => transformErrorsWith(errorTargets), [errorTargets]);

  // An error shown after a blur or a submit goes away as soon as the data (or the state the
  // rules read) no longer has it; a new error still waits for the applicant to leave the field.
  useEffect(() => {
    setBlurErrors((shown) => {
      if (shown.length === 0) return shown;
      const current = errorsOf(dataRef.current);
      const still = shown.filter((error) => current.some((c) => c.field === error.field && c.message === error.message));
      return still.length === shown.length ? shown : still;
    });
    // errorsOf reads the latest judgement and schema through a ref; these are what change them.
  }, [formData, judge, loaded]);

  if (failed) throw new Error(`form ${schemaName} could not be loaded`);
  if (!loaded) return <p role="status">読み込み中です…</p>;

  return (
    <Form<FormData, RJSFSchema>
      schema={loaded.schema}
      uiSchema={mergedUiSchema}
      validator={loaded.validator}
      formData={formData}
      formContext={context}
      idPrefix={idPrefix}
      idSeparator={ID_SEPARATOR}
      templates={templates}
      widgets={widgets}
      noHtml5Validate
      showErrorList={false}
      transformErrors={transformErrors}
      focusOnFirstError={false}
      onError={(errors) => {
        const fields = errors.map((error) => fieldOfProperty(error.property));
        // The fields in error count as left: their messages follow the applicant's corrections.
        for (const field of fields) touchedRef.current.add(field);
        setBlurErrors([]);
        focusFirstOf(formRef.current?.formElement.current ?? null, fields, idPrefix);
      }}
      ref={formRef}
      extraErrors={extraErrors}
      onChange={(event: IChangeEvent<FormData>) => {
        const previous = dataRef.current;
        const next = event.formData ?? {};
        dataRef.current = next;
        setFormData(next);
        const changed = fieldErrors.filter((error) => !Object.is(next[error.field], previous[error.field])).map((error) => error.field);
        if (changed.length > 0) setChangedSinceAnswer((current) => new Set([...current, ...changed]));
        latest.current.onDataChange?.(next, previous, api);
      }}
      onBlur={(id: string) => {
        const field = fieldOfId(id, idPrefix);
        touchedRef.current.add(field);
        // After the change the blur may have made (a widget normalising its value) is applied.
        window.setTimeout(() => {
          if (!alive.current) return;
          revalidateTouched();
          latest.current.onFieldBlur?.(field, api);
        }, 0);
      }}
      noValidate={ownValidation}
      experimental_defaultFormStateBehavior={DEFAULT_FORM_STATE}
      onSubmit={(event: IChangeEvent<FormData>) => {
        if (ownValidation) {
          const errors = errorsOf(event.formData ?? {});
          if (errors.length > 0) {
            // As in onError: the fields in error count as left.
            for (const error of errors) touchedRef.current.add(error.field);
            setBlurErrors(errors);
            // Once the errors are drawn: a later form of the page then sees an earlier one's focused field in error.
            const form = formRef.current?.formElement.current ?? null;
            window.setTimeout(() => focusFirstOf(form, errors.map((error) => error.field), idPrefix), 0);
            return;
          }
        }
        setBlurErrors([]);
        void onSubmit(event.formData ?? {});
      }}
      disabled={busy}
    >
      {children ??
        (beforeSubmit ? (
          <>
            {beforeSubmit}
            <FormSubmitButton label={shownSubmitLabel} disabled={busy} />
          </>
        ) : undefined)}
    </Form>
  );
}
