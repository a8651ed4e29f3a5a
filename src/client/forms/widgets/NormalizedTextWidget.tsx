import type { HTMLAttributes } from 'react';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { ImeSafeInput } from './ImeSafeInput';

export type Normalizer = (value: string) => string;

/**
 * A text input whose value is rewritten when the applicant leaves it (never during an IME
 * composition), with the function given as `ui:options.normalize`: e.g. normalizeWorkplaceName
 * (full width, ㈱ → 株式会社, trimmed). What the field shows after blur is what is checked and sent.
 * ui:options also takes autocomplete and inputMode, like the plain text inputs.
 */
export function NormalizedTextWidget({ id, htmlName, value, onChange, onBlur, onFocus, options, rawErrors, required, disabled, readonly, placeholder }: WidgetProps) {
  const normalize: Normalizer = typeof options.normalize === 'function' ? (options.normalize as Normalizer) : (text) => text;
  const text = value == null ? '' : String(value);
  const autoComplete = typeof options.autocomplete === 'string' ? options.autocomplete : undefined;
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
      aria-invalid={(rawErrors?.length ?? 0) > 0 || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onFocus={(event) => onFocus(id, event.target.value)}
      onValueChange={(next) => onChange(next === '' ? options.emptyValue : next)}
      onLeave={(typed, toSubmit) => {
        if (readonly) return;
        const normalized = normalize(typed);
        if (normalized !== typed) onChange(normalized === '' ? options.emptyValue : normalized);
        if (!toSubmit) onBlur(id, normalized);
      }}
    />
  );
}
