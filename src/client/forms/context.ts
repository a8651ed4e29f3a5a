/** The form data of a SchemaForm: field name → value. */
export type FormData = Record<string, unknown>;

/**
 * A handle on the form's data for screens and widgets: what the form holds now, and a way to
 * set fields. Changes go through rjsf's own queue (Form.setFieldValue), so a patch made in the
 * same event as a keystroke or another patch never overwrites it.
 */
export interface FormApi {
  getData(): FormData;
  /** Sets the given fields (undefined clears one); a function receives the latest data. Unchanged values are skipped. */
  patch(update: FormData | ((data: FormData) => FormData)): void;
}

/**
 * What every widget finds in `registry.formContext`: the screen's own context (SchemaForm's
 * `formContext` prop) plus the form handle. The context stays the same object while the
 * applicant types (a new one would re-render every field on every keystroke): a widget reads
 * other fields with form.getData() when it renders for a change of its own value.
 */
export interface SchemaFormContext extends Record<string, unknown> {
  form: FormApi;
  /** The page's way to the error page, for a widget whose request failed (useFormStep gives it). */
  fail?: (error?: unknown) => void;
}

/** The page's `fail`, or a rethrow when the form was drawn without one (an error boundary takes it). */
export function failOf(context: SchemaFormContext): (error?: unknown) => void {
  return (
    context.fail ??
    ((error) => {
      throw error;
    })
  );
}

/** The form context of a widget's registry, typed (rjsf types it as a plain object). */
export function schemaFormContextOf(formContext: unknown): SchemaFormContext | undefined {
  if (!formContext || typeof formContext !== 'object' || !('form' in formContext)) return undefined;
  return formContext as SchemaFormContext;
}
