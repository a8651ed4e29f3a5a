import type { WidgetProps } from '@rjsf/utils';
import { choicesOf } from './choices';
import { RadioCardGroup } from './RadioCardGroup';

/**
 * One choice among large radio cards whose options are master data loaded at run time, given
 * as `ui:options.choices` [{ value, label, description? }] (the schema stays a plain string):
 * the branch list, with the address under each branch name. RadioCardsWidget is the same for
 * choices the schema enumerates. Use with ui:options.group, so the legend names the group.
 */
export function ChoiceCardsWidget(props: WidgetProps) {
  const { id, value } = props;
  const choices = choicesOf(props.options.choices);
  return (
    <RadioCardGroup
      {...props}
      className="choices choices--column choice-cards"
      cards={choices.map((choice, index) => {
        // root_<field>__<n>: the form finds the field of a control by its id (see SchemaForm).
        const inputId = `${id}__${index}`;
        const descriptionId = choice.description ? `${inputId}__description` : undefined;
        return {
          inputId,
          value: choice.value,
          checked: value !== undefined && value !== null && String(value) === String(choice.value),
          labelClassName: 'choice__label choice-card__label',
          describedBy: descriptionId,
          label: (
            <>
              <span className="choice-card__title">{choice.label}</span>
              {choice.description && (
                <span id={descriptionId} className="choice-card__description">
                  {choice.description}
                </span>
              )}
            </>
          ),
        };
      })}
    />
  );
}
