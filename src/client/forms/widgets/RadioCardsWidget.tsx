import { ariaDescribedByIds, optionId, type WidgetProps } from '@rjsf/utils';
import { leavesGroup } from './groupFocus';

/**
 * Choices from the schema's enum (labels from ui:enumNames) as large radio cards, e.g.
 * 性別 男性/女性. Used with ui:options.group, so the legend names the group.
 * ui:options.columns: 1 stacks the cards (long labels), default two side by side.
 */
export function RadioCardsWidget({ id, htmlName, value, onChange, onBlur, onFocus, options, rawErrors, disabled, readonly, required }: WidgetProps) {
  const choices = options.enumOptions ?? [];
  const layout = options.columns === 1 ? 'column' : 'row';
  return (
    <div
      className={`choices choices--${layout}`}
      onBlur={(event) => {
        if (leavesGroup(event)) onBlur(id, value);
      }}
      onFocus={() => onFocus(id, value)}
    >
      {choices.map((choice, index) => {
        const inputId = optionId(id, index);
        return (
          <div className="choice" key={inputId}>
            <input
              type="radio"
              id={inputId}
              name={htmlName || id}
              value={String(choice.value)}
              checked={value === choice.value}
              disabled={disabled || readonly}
              className="choice__input"
              aria-invalid={(rawErrors?.length ?? 0) > 0 || undefined}
              aria-required={required || undefined}
              aria-describedby={ariaDescribedByIds(id)}
              onChange={() => onChange(choice.value)}
            />
            <label htmlFor={inputId} className="choice__label">
              {choice.label}
            </label>
          </div>
        );
      })}
    </div>
  );
}
