import { useEffect, useMemo, useState, type ReactNode } from 'react';
import Form, { type IChangeEvent } from '@rjsf/core';
import type { ErrorSchema, RJSFSchema, UiSchema } from '@rjsf/utils';
import { loadSchema, type LoadedSchema } from './schemas';
import { BaseInputTemplate, FieldErrorTemplate, FieldTemplate, SubmitButton } from './templates';
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

const templates = { FieldTemplate, FieldErrorTemplate, BaseInputTemplate, ButtonTemplates: { SubmitButton } };

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
export function SchemaForm({ schemaName, uiSchema, initialData, submitLabel, onSubmit, fieldErrors = [], busy = false, children }: SchemaFormProps) {
  const [loaded, setLoaded] = useState<LoadedSchema | null>(null);
  const [failed, setFailed] = useState(false);
  const [formData, setFormData] = useState<FormData>(initialData ?? {});
  const [blurErrors, setBlurErrors] = useState<FieldError[]>([]);
  const [touched, setTouched] = useState<Set<string>>(new Set());

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
      errors
        .map((error) => ({ field: (error.property ?? '').replace(/^\./, '').split('.')[0] ?? '', message: error.message ?? '' }))
        .filter((error) => fields.has(error.field)),
    );
  };

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
      focusOnFirstError
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
