import type { WidgetProps } from '@rjsf/utils';
import { ChoiceSelectWidget } from './ChoiceSelectWidget';
import type { Choice } from './choices';

/**
 * rjsf's own name for the select of a field whose schema lists its options (`oneOf` with
 * const and title, or `enum`): drawn by our one select (required and invalid state announced,
 * 「選択してください」 first) with the schema's options as its choices.
 */
export function SelectWidget(props: WidgetProps) {
  const enumOptions: unknown = props.options.enumOptions;
  const choices: Choice[] = Array.isArray(enumOptions)
    ? enumOptions.flatMap((option: { value?: unknown; label?: unknown }) =>
        ['string', 'number', 'boolean'].includes(typeof option.value) && typeof option.label === 'string'
          ? [{ value: option.value as Choice['value'], label: option.label }]
          : [],
      )
    : [];
  return <ChoiceSelectWidget {...props} options={{ ...props.options, choices }} />;
}
