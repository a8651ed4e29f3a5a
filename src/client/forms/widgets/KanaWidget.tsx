import type { HTMLAttributes } from 'react';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { normalizeKanaAddress, normalizeKanaName } from '../../../domain/rules';
import { ImeSafeInput } from './ImeSafeInput';

/**
 * A kana (フリガナ) input. What the applicant types (hiragana, full-width katakana, small
 * kana, spaces) is normalised to the half-width katakana the bank stores when they leave the
 * field, never during an IME composition. ui:options.kana: 'name' (default) or 'address'.
 */
export function KanaWidget({ id, htmlName, value, onChange, onBlur, onFocus, options, rawErrors, required, disabled, readonly, placeholder }: WidgetProps) {
  const normalize = options.kana === 'address' ? normalizeKanaAddress : normalizeKanaName;
  const text = value == null ? '' : String(value);
  const autoComplete = typeof options.autocomplete === 'string' ? options.autocomplete : 'off';
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
        const normalized = normalize(typed);
        if (normalized !== typed) onChange(normalized === '' ? options.emptyValue : normalized);
        if (!toSubmit) onBlur(id, normalized);
      }}
    />
  );
}
