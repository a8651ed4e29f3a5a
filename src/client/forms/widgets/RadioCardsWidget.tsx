import { optionId, type WidgetProps } from '@rjsf/utils';
import { RadioCardGroup } from './RadioCardGroup';

/**
 * Choices from the schema's enum (labels from ui:enumNames) as large radio cards, e.g.
 * 性別 男性/女性. Used with ui:options.group, so the legend names the group.
 * ui:options.columns: 1 stacks the cards (long labels), default two side by side.
 */
export function RadioCardsWidget(props: WidgetProps) {
  const { options, value } = props;
  const choices = options.enumOptions ?? [];
  const layout = options.columns === 1 ? 'column' : 'row';
  return (
    <RadioCardGroup
      {...props}
      className={`choices choices--${layout}`}
      cards={choices.map((choice, index) => ({
        inputId: optionId(props.id, index),
        value: choice.value,
        checked: value === choice.value,
        label: choice.label,
      }))}
    />
  );
}
