import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { isSubmitButton } from './ImeSafeInput';
import { invalidOf } from './invalid';
import { RequirementBadge } from '../../ui/RequirementBadge';
import { requirementOf } from '../templates';

/**
 * One checkbox for a boolean field (rjsf's default widget for booleans, replaced): a large
 * bordered box with the field's title as its label, e.g. 「該当する住所がない」, and 必須 when
 * it must be ticked (a declaration: { "type": "boolean", "const": true }, required).
 */
export function CheckboxWidget({ id, htmlName, value, label, onChange, onBlur, onFocus, rawErrors, disabled, readonly, required, options }: WidgetProps) {
  const mustTick = requirementOf(required, options) === 'required';
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
        aria-required={mustTick || undefined}
        aria-describedby={ariaDescribedByIds(id)}
        onChange={(event) => onChange(event.target.checked)}
        onBlur={(event) => {
          if (!isSubmitButton(event.relatedTarget)) onBlur(id, event.target.checked);
        }}
        onFocus={(event) => onFocus(id, event.target.checked)}
      />
      <label htmlFor={id} className="checkbox__label">
        {label}
        {mustTick && <RequirementBadge kind="required" />}
      </label>
    </div>
  );
}
