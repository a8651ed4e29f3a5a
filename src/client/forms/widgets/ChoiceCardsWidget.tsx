import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { choicesOf } from './choices';
import { leavesGroup } from './groupFocus';

/**
 * One choice among large radio cards whose options are master data loaded at run time, given
 * as `ui:options.choices` [{ value, label, description? }] (the schema stays a plain string):
 * the branch list, with the address under each branch name. RadioCardsWidget is the same for
 * choices the schema enumerates. Use with ui:options.group, so the legend names the group.
 */
export function ChoiceCardsWidget({ id, htmlName, value, onChange, onBlur, onFocus, options, rawErrors, disabled, readonly, required }: WidgetProps) {
  const choices = choicesOf(options.choices);
  return (
    <div
      className="choices choices--column choice-cards"
      onBlur={(event) => {
        if (leavesGroup(event)) onBlur(id, value);
      }}
      onFocus={() => onFocus(id, value)}
    >
      {choices.map((choice, index) => {
        // root_<field>__<n>: the form finds the field of a control by its id (see SchemaForm).
        const inputId = `${id}__${index}`;
        const descriptionId = choice.description ? `${inputId}__description` : undefined;
        return (
          <div className="choice" key={inputId}>
            <input
              type="radio"
              id={inputId}
              name={htmlName || id}
              value={String(choice.value)}
              checked={value !== undefined && value !== null && String(value) === String(choice.value)}
              disabled={disabled || readonly}
              className="choice__input"
              aria-invalid={(rawErrors?.length ?? 0) > 0 || undefined}
              aria-required={required || undefined}
              aria-describedby={[ariaDescribedByIds(id), descriptionId].filter(Boolean).join(' ')}
              onChange={() => onChange(choice.value)}
            />
            <label htmlFor={inputId} className="choice__label choice-card__label">
              <span className="choice-card__title">{choice.label}</span>
              {choice.description && (
                <span id={descriptionId} className="choice-card__description">
                  {choice.description}
                </span>
              )}
            </label>
          </div>
        );
      })}
    </div>
  );
}
