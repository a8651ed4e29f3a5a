import { ariaDescribedByIds, optionId, type WidgetProps } from '@rjsf/utils';
import { leavesGroup } from './groupFocus';
import { invalidOf } from './invalid';

export interface CheckboxChoice {
  value: string;
  label: string;
}

function choicesOf(options: WidgetProps['options']): CheckboxChoice[] {
  if (Array.isArray(options.choices)) {
    return (options.choices as unknown[]).filter(
      (choice): choice is CheckboxChoice =>
        typeof choice === 'object' && choice !== null && typeof (choice as CheckboxChoice).value === 'string' && typeof (choice as CheckboxChoice).label === 'string',
    );
  }
  return (options.enumOptions ?? []).map((option) => ({ value: String(option.value), label: option.label }));
}

/**
 * Several choices as checkboxes (an array field), e.g. 口座のご利用目的 from the bank's own
 * list: ui:options.choices [{value, label}] (else the schema's enum). The value keeps the
 * order of the list. Use with ui:options.group and multiSelect (the 複数選択可 hint).
 */
export function CheckboxesWidget({ id, htmlName, value, onChange, onBlur, onFocus, options, rawErrors, disabled, readonly }: WidgetProps) {
  const choices = choicesOf(options);
  const selected: string[] = Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  const toggle = (choice: string, checked: boolean) => {
    const next = choices.map((c) => c.value).filter((v) => (v === choice ? checked : selected.includes(v)));
    onChange(next);
  };
  return (
    <div
      className="checkboxes"
      onBlur={(event) => {
        if (leavesGroup(event)) onBlur(id, selected);
      }}
      onFocus={() => onFocus(id, selected)}
    >
      {choices.map((choice, index) => {
        const inputId = optionId(id, index);
        return (
          <div className="checkbox" key={choice.value}>
            <input
              type="checkbox"
              id={inputId}
              name={htmlName || id}
              value={choice.value}
              className="checkbox__input"
              checked={selected.includes(choice.value)}
              disabled={disabled || readonly}
              aria-invalid={invalidOf(rawErrors)}
              aria-describedby={ariaDescribedByIds(id)}
              onChange={(event) => toggle(choice.value, event.target.checked)}
            />
            <label htmlFor={inputId} className="checkbox__label">
              {choice.label}
            </label>
          </div>
        );
      })}
    </div>
  );
}
