import type { HTMLAttributes } from 'react';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { isNormalizerName, normalizers } from '../../../domain/rules/normalizers';
import { NORMALIZE_KEYWORD } from '../../../domain/forms/format';
import { ImeSafeInput } from './ImeSafeInput';
import { invalidOf } from './invalid';

export type Normalizer = (value: string) => string;

export interface NormalizeOnBlurOptions {
  /** The rewrite applied when the applicant leaves the field. */
  normalize: Normalizer;
  /** autocomplete when ui:options.autocomplete is not given. */
  defaultAutoComplete?: string;
  /** A read-only field is left as it is on blur (neither rewritten nor reported). */
  keepReadonly?: boolean;
}

/**
 * The one "normalise on blur, IME-safe" text input: what the applicant typed is rewritten
 * with `normalize` when they leave the field, never during an IME composition. What the field
 * shows after blur is what is checked and sent. ui:options also takes autocomplete and
 * inputMode, like the plain text inputs.
 */
export function NormalizeOnBlurInput({
  id,
  htmlName,
  value,
  onChange,
  onBlur,
  onFocus,
  options,
  rawErrors,
  required,
  disabled,
  readonly,
  placeholder,
  normalize,
  defaultAutoComplete,
  keepReadonly = false,
}: WidgetProps & NormalizeOnBlurOptions) {
  const text = value == null ? '' : String(value);
  const autoComplete = typeof options.autocomplete === 'string' ? options.autocomplete : defaultAutoComplete;
  const inputMode = typeof options.inputMode === 'string' ? (options.inputMode as HTMLAttributes<HTMLInputElement>['inputMode']) : undefined;
  return (
    <ImeSafeInput
      id={id}
      name={htmlName || id}
      type="text"
      className="input"
      value={text}
      placeholder={placeholder}
      disabled={disabled}
      readOnly={readonly}
      autoComplete={autoComplete}
      inputMode={inputMode}
      aria-required={required || options.requirement === 'required' || undefined}
      aria-invalid={invalidOf(rawErrors)}
      aria-describedby={ariaDescribedByIds(id)}
      onFocus={(event) => onFocus(id, event.target.value)}
      onValueChange={(next) => onChange(next === '' ? options.emptyValue : next)}
      onLeave={(typed, toSubmit) => {
        if (keepReadonly && readonly) return;
        const normalized = normalize(typed);
        if (normalized !== typed) onChange(normalized === '' ? options.emptyValue : normalized);
        if (!toSubmit) onBlur(id, normalized);
      }}
    />
  );
}

/** The rewrite of a field: the function `ui:options.normalize` gives, else the field's own x-normalize. */
export function normalizerOf(option: unknown, schema: WidgetProps['schema']): Normalizer {
  if (typeof option === 'function') return option as Normalizer;
  const name: unknown = schema[NORMALIZE_KEYWORD];
  return isNormalizerName(name) ? normalizers[name] : (text) => text;
}

/**
 * A text input rewritten on blur with the function given as `ui:options.normalize`, or else
 * with the field's x-normalize: e.g. "workplaceName" (full width, ㈱ → 株式会社, trimmed).
 */
export function NormalizedTextWidget(props: WidgetProps) {
  return <NormalizeOnBlurInput {...props} normalize={normalizerOf(props.options.normalize, props.schema)} keepReadonly />;
}
