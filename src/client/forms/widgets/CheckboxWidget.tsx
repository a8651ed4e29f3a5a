import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { isSubmitButton } from './ImeSafeInput';
import { invalidOf } from './invalid';

/**
 * One checkbox for a boolean field (rjsf's default widget for booleans, replaced): a large
 * bordered box with the field's title as its label, e.g. 「該当する住所がない」.
 */
export function CheckboxWidget({ id, htmlName, value, label, onChange, onBlur, onFocus, rawErrors, disabled, readonly, required }: WidgetProps) {
  return (
    <div className="checkbox">
      <input
        type="checkbox"
        id={id}
        name={htmlName || id}
        className="checkbox__input"
        checked={value === true}
        disabled={disabled || readonly}
        aria-invalid={invalidOf(rawErrors)}
        aria-required={required || undefined}
        aria-describedby={ariaDescribedByIds(id)}
        onChange={(event) => onChange(event.target.checked)}
        onBlur={(event) => {
          if (!isSubmitButton(event.relatedTarget)) onBlur(id, event.target.checked);
        }}
        onFocus={(event) => onFocus(id, event.target.checked)}
      />
      <label htmlFor={id} className="checkbox__label">
        {label}
      </label>
    </div>
  );
}
