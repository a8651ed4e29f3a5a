import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import Form, { type IChangeEvent } from '@rjsf/core';
import type { ErrorSchema, RJSFSchema, RJSFValidationError, UiSchema } from '@rjsf/utils';
import { loadSchema, type LoadedSchema } from './schemas';
import { BaseInputTemplate, FieldErrorTemplate, FieldTemplate, ObjectFieldTemplate, SubmitButton } from './templates';
import { widgets } from './widgets';

type FormData = Record<string, unknown>;

export interface FieldError {
  field: string;
  message: string;
}

export interface SchemaFormProps {
  /** Name of schemas/<name>.schema.json. */
  schemaName: string;
  uiSchema?: UiSchema<FormData, RJSFSchema>;
  initialData?: FormData;
  submitLabel: string;
  /** Called with valid data; may reject with field errors from the server (a 400). */
  onSubmit: (data: FormData) => Promise<void> | void;
  /** Field errors to show (e.g. from the server's 400 answer). */
  fieldErrors?: FieldError[];
  busy?: boolean;
  children?: ReactNode;
}

const NO_ERRORS: FieldError[] = [];
const templates = { FieldTemplate, FieldErrorTemplate, BaseInputTemplate, ObjectFieldTemplate, ButtonTemplates: { SubmitButton } };

/** First segment of an rjsf error property (".mailAddress" or "mailAddress.0" -> "mailAddress"). */
export function fieldOfProperty(property: string | undefined): string {
  return (property ?? '').replace(/^\./, '').split('.')[0] ?? '';
}

/** An if/then/else adds an "if" error beside the failed branch's own ones: it says nothing to the applicant. */
const dropConditionalNoise = (errors: RJSFValidationError[]) => errors.filter((error) => error.name !== 'if');

/** Moves the focus to the field in error (or the first control of a group, like radio buttons). */
function focusField(form: HTMLFormElement | null, field: string): void {
  const id = `root_${field}`;
  const target = document.getElementById(id) ?? form?.querySelector<HTMLElement>(`[id^="${CSS.escape(id)}"]`);
  target?.focus();
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
export function SchemaForm({ schemaName, uiSchema, initialData, submitLabel, onSubmit, fieldErrors = NO_ERRORS, busy = false, children }: SchemaFormProps) {
  const [loaded, setLoaded] = useState<LoadedSchema | null>(null);
  const [failed, setFailed] = useState(false);
  const [formData, setFormData] = useState<FormData>(initialData ?? {});
  const [blurErrors, setBlurErrors] = useState<FieldError[]>([]);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const formRef = useRef<Form<FormData, RJSFSchema>>(null);

  useEffect(() => {
    let alive = true;
    loadSchema(schemaName).then(
      (result) => alive && setLoaded(result),
      () => alive && setFailed(true),
    );
    return () => {
      alive = false;
    };
  }, [schemaName]);

  const revalidateTouched = (data: FormData, fields: Set<string>) => {
    if (!loaded) return;
    const { errors } = loaded.validator.validateFormData(data, loaded.schema);
    setBlurErrors(
      dropConditionalNoise(errors)
        .map((error) => ({ field: fieldOfProperty(error.property), message: error.message ?? '' }))
        .filter((error) => fields.has(error.field)),
    );
  };

  // Errors from the server (a 400) take the focus like the browser's own do.
  useEffect(() => {
    const first = fieldErrors[0];
    if (first) focusField(formRef.current?.formElement.current ?? null, first.field);
  }, [fieldErrors]);

  const extraErrors = useMemo(() => toErrorSchema([...blurErrors, ...fieldErrors]), [blurErrors, fieldErrors]);
  const mergedUiSchema = useMemo<UiSchema<FormData, RJSFSchema>>(
    () => ({
      ...uiSchema,
      'ui:submitButtonOptions': { submitText: busy ? '送信中です…' : submitLabel, props: { disabled: busy } },
    }),
    [uiSchema, submitLabel, busy],
  );

  if (failed) throw new Error(`form ${schemaName} could not be loaded`);
  if (!loaded) return <p role="status">読み込み中です…</p>;

  return (
    <Form<FormData, RJSFSchema>
      schema={loaded.schema}
      uiSchema={mergedUiSchema}
      validator={loaded.validator}
      formData={formData}
      templates={templates}
      widgets={widgets}
      noHtml5Validate
      showErrorList={false}
      transformErrors={dropConditionalNoise}
      focusOnFirstError={(error) => focusField(formRef.current?.formElement.current ?? null, fieldOfProperty(error.property))}
      ref={formRef}
      extraErrors={extraErrors}
      onChange={(event: IChangeEvent<FormData>) => setFormData(event.formData ?? {})}
      onBlur={(id: string) => {
        const field = id.replace(/^root_/, '').split('_')[0] ?? '';
        const next = new Set(touched).add(field);
        setTouched(next);
        revalidateTouched(formData, next);
      }}
      onSubmit={(event: IChangeEvent<FormData>) => {
        setBlurErrors([]);
        void onSubmit(event.formData ?? {});
      }}
      disabled={busy}
    >
      {children}
    </Form>
  );
}
