import type { WidgetProps } from '@rjsf/utils';

/** The id of the text that names a fixed answer (FieldTemplate draws it in place of a <label>). */
export const fixedAnswerLabelId = (id: string) => `${id}__label`;

/**
 * An answer the applicant cannot change, shown as text under its title: a field of one allowed
 * value (its schema `default`), such as the parent's proxy reason 「お子さまが未成年のため」.
 * The label is the value's ui:enumNames entry; the value itself is posted as any other.
 */
export function FixedAnswerWidget({ id, value, options }: WidgetProps) {
  const label = options.enumOptions?.find((option) => option.value === value)?.label ?? String(value ?? '');
  return (
    <p id={id} className="field__value" aria-labelledby={fixedAnswerLabelId(id)}>
      {label}
    </p>
  );
}
