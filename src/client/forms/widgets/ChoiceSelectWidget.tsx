import type { ChangeEvent, FocusEvent } from 'react';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { choicesOf } from './choices';
import { invalidOf } from './invalid';

/**
 * A select whose options are master data loaded at run time (the occupation list), given as
 * `ui:options.choices` [{ value, label }]: the schema stays a plain integer or string. The
 * first option asks the applicant to choose; the value keeps the type of the choice (number
 * for an occupation id).
 */
export function ChoiceSelectWidget({ id, value, required, disabled, readonly, options, rawErrors, onChange, onBlur, onFocus }: WidgetProps) {
  const choices = choicesOf(options.choices);
  const selected = choices.findIndex((choice) => String(choice.value) === String(value ?? ''));
  const placeholder = typeof options.placeholderLabel === 'string' ? options.placeholderLabel : '選択してください';
  const handleChange = ({ target }: ChangeEvent<HTMLSelectElement>) => {
    const choice = target.value === '' ? undefined : choices[Number(target.value)];
    onChange(choice?.value);
  };
  return (
    <select
      id={id}
      name={id}
      className="input select"
      value={selected >= 0 ? String(selected) : ''}
      disabled={disabled || readonly}
      aria-required={required || options.requirement === 'required' || undefined}
      aria-invalid={invalidOf(rawErrors)}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={handleChange}
      onBlur={({ target }: FocusEvent<HTMLSelectElement>) => onBlur(id, target.value)}
      onFocus={({ target }: FocusEvent<HTMLSelectElement>) => onFocus(id, target.value)}
    >
      <option value="">{placeholder}</option>
      {choices.map((choice, index) => (
        <option key={String(choice.value)} value={String(index)}>
          {choice.label}
        </option>
      ))}
    </select>
  );
}
