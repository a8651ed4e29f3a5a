import { Fragment, useCallback, useRef, type ChangeEvent, type CompositionEvent, type FocusEvent, type HTMLAttributes, type KeyboardEvent } from 'react';
import {
  ariaDescribedByIds,
  errorId,
  getInputProps,
  getUiOptions,
  type BaseInputTemplateProps,
  type FieldErrorProps,
  type FieldPathId,
  type FieldTemplateProps,
  type ObjectFieldTemplateProps,
  type SubmitButtonProps,
} from '@rjsf/utils';
import { MultiSelectHint, RequirementBadge, type Requirement } from '../ui/RequirementBadge';
import { fixedAnswerLabelId } from './widgets/FixedAnswerWidget';
import { invalidOf } from './widgets/invalid';
import { LengthCounter, textLimitOf } from './widgets/textLimit';

/**
 * Our rjsf theme: labels tied to inputs with the bank's required/optional badges, errors under
 * the field announced politely and linked by aria-describedby, inputs with autocomplete and
 * inputmode from the uiSchema, and no validation while an IME composition is in progress.
 */
export function FieldTemplate(props: FieldTemplateProps) {
  const { id, fieldPathId, label, children, errors, help, description, hidden, required, displayLabel, uiSchema, rawErrors, classNames } = props;
  if (hidden) return <div hidden>{children}</div>;
  // The root (an empty path, whatever the form's idPrefix) is the form itself: the screen labels it.
  if (isRootPath(fieldPathId)) return <>{children}</>;
  const uiOptions = getUiOptions(uiSchema);
  const hasError = (rawErrors?.length ?? 0) > 0;
  const className = ['field', hasError ? 'field--error' : '', classNames ?? ''].filter(Boolean).join(' ');
  const badge = <RequirementBadge kind={requirementOf(required, uiOptions)} />;
  const hint = uiOptions.multiSelect === true ? <MultiSelectHint /> : null;
  // A schema's own description is for developers (e.g. "FATHER = 父"): only ui:description shows.
  const shownDescription = displayLabel && uiOptions.description !== undefined ? description : null;
  // An answer the applicant cannot change is text, named by its title (no control to label, nothing to require).
  if (uiSchema?.['ui:widget'] === 'FixedAnswerWidget') {
    return (
      <div className={className}>
        <p className="field__label" id={fixedAnswerLabelId(id)}>
          {label}
        </p>
        {children}
      </div>
    );
  }
  // A widget made of several controls (three selects, three inputs, radio buttons, the postal
  // code search) is a group (ui:options.group): a fieldset named by its legend.
  if (uiOptions.group === true) {
    return (
      <fieldset className={`${className} field--group`} aria-describedby={errorId(id)}>
        {displayLabel && (
          <legend className="field__label">
            {label}
            {badge}
            {hint}
          </legend>
        )}
        {shownDescription}
        {children}
        {errors}
        {help}
      </fieldset>
    );
  }
  return (
    <div className={className}>
      {displayLabel && (
        <label htmlFor={id} className="field__label">
          {label}
          {badge}
          {hint}
        </label>
      )}
      {shownDescription}
      {children}
      {errors}
      {help}
    </div>
  );
}

/**
 * The badge of a field: `ui:options.requirement` wins when a rule outside the schema decides
 * (e.g. the workplace name is required only for some occupations), else the schema's required.
 */
export function requirementOf(required: boolean | undefined, uiOptions: Record<string, unknown>): Requirement {
  const { requirement } = uiOptions;
  if (requirement === 'required' || requirement === 'either' || requirement === 'optional') return requirement;
  return required ? 'required' : uiOptions.eitherRequired ? 'either' : 'optional';
}

/** Whether a field is the form's root object (its id is the form's idPrefix alone). */
export function isRootPath(fieldPathId: FieldPathId): boolean {
  return fieldPathId.path.length === 0;
}

/**
 * Objects render their fields only: the schema's own title and description are for developers
 * (the screen has its heading), and a nested group gets a fieldset with a legend.
 */
export function ObjectFieldTemplate({ properties, title, fieldPathId, uiSchema }: ObjectFieldTemplateProps) {
  const content = properties.filter((p) => !p.hidden).map((p) => <Fragment key={p.name}>{p.content}</Fragment>);
  if (isRootPath(fieldPathId)) return <div className="form-fields">{content}</div>;
  const legend = getUiOptions(uiSchema).title ?? title;
  return (
    <fieldset className="field-group">
      {legend && <legend className="field__label">{legend}</legend>}
      {content}
    </fieldset>
  );
}

export function FieldErrorTemplate({ errors = [], fieldPathId }: FieldErrorProps) {
  // Schema, rule and blur validation may say the same thing: say it once.
  const messages = [...new Set(errors.filter((message): message is string => typeof message === 'string' && message !== ''))];
  return (
    <div id={errorId(fieldPathId)} className="field__error" aria-live="polite">
      {messages.map((message, index) => (
        <p key={index}>{message}</p>
      ))}
    </div>
  );
}

export function BaseInputTemplate(props: BaseInputTemplateProps) {
  const { id, htmlName, value, readonly, disabled, autofocus, onBlur, onFocus, onChange, options, schema, type, rawErrors, placeholder, required } = props;
  const composing = useRef(false);
  const inputProps = getInputProps(schema, type, options);
  const handleChange = useCallback(
    ({ target }: ChangeEvent<HTMLInputElement>) => onChange(target.value === '' ? options.emptyValue : target.value),
    [onChange, options.emptyValue],
  );
  const handleBlur = useCallback(
    ({ target, relatedTarget }: FocusEvent<HTMLInputElement>) => {
      // Leaving the field for the submit button: submit validates everything anyway, and an
      // error appearing now would shift the button away from under the applicant's finger.
      const toSubmit = relatedTarget instanceof HTMLButtonElement && relatedTarget.type === 'submit';
      if (!composing.current && !toSubmit) onBlur(id, target.value);
    },
    [onBlur, id],
  );
  const onCompositionStart = () => {
    composing.current = true;
  };
  const onCompositionEnd = (event: CompositionEvent<HTMLInputElement>) => {
    composing.current = false;
    onChange(event.currentTarget.value);
  };
  // Enter that confirms an IME conversion must not submit the form.
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && (event.nativeEvent.isComposing || composing.current)) event.preventDefault();
  };
  const autoComplete = typeof options.autocomplete === 'string' ? options.autocomplete : undefined;
  const inputMode = typeof options.inputMode === 'string' ? (options.inputMode as HTMLAttributes<HTMLInputElement>['inputMode']) : undefined;
  const { maxLength, counted } = textLimitOf(schema);
  return (
    <>
    <input
      id={id}
      name={htmlName || id}
      className="input"
      readOnly={readonly}
      disabled={disabled}
      autoFocus={autofocus}
      value={value == null ? '' : String(value)}
      placeholder={placeholder}
      {...inputProps}
      autoComplete={autoComplete}
      inputMode={inputMode}
      maxLength={maxLength}
      required={false}
      aria-required={requirementOf(required, options) === 'required' || undefined}
      aria-invalid={invalidOf(rawErrors)}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={handleChange}
      onBlur={handleBlur}
      onFocus={({ target }) => onFocus(id, target.value)}
      onCompositionStart={onCompositionStart}
      onCompositionEnd={onCompositionEnd}
      onKeyDown={onKeyDown}
    />
    {counted !== undefined && <LengthCounter id={id} value={value} limit={counted} />}
    </>
  );
}

export function SubmitButton({ uiSchema }: SubmitButtonProps) {
  const options = getUiOptions(uiSchema);
  const submit = (options.submitButtonOptions ?? {}) as { submitText?: string; norender?: boolean; props?: { disabled?: boolean } };
  if (submit.norender) return null;
  return <FormSubmitButton label={submit.submitText ?? '次へ'} disabled={submit.props?.disabled} />;
}

/** The form's primary button (also placed by SchemaForm itself after its `beforeSubmit`). */
export function FormSubmitButton({ label, disabled }: { label: string; disabled?: boolean }) {
  return (
    <button type="submit" className="button button--primary" disabled={disabled}>
      {label}
    </button>
  );
}
