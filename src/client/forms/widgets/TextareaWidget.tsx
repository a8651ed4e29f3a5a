import type { ChangeEvent, FocusEvent } from 'react';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { requirementOf } from '../templates';
import { isSubmitButton } from './ImeSafeInput';
import { invalidOf } from './invalid';
import { LengthCounter, textLimitOf } from './textLimit';

/**
 * A multi-line text (`ui:widget: 'textarea'`, e.g. the distance-transaction reason), replacing
 * rjsf's own, which sets neither aria-invalid nor aria-required. Like the text inputs, leaving
 * it for the submit button does not validate (the submit does).
 */
export function TextareaWidget({ id, htmlName, value, placeholder, disabled, readonly, required, options, schema, rawErrors, onChange, onBlur, onFocus }: WidgetProps) {
  const rows = typeof options.rows === 'number' ? options.rows : 3;
  const { maxLength, counted } = textLimitOf(schema);
  return (
    <>
    <textarea
      id={id}
      name={htmlName || id}
      className="input textarea"
      value={value == null ? '' : String(value)}
      placeholder={placeholder}
      rows={rows}
      maxLength={maxLength}
      disabled={disabled}
      readOnly={readonly}
      aria-required={requirementOf(required, options) === 'required' || undefined}
      aria-invalid={invalidOf(rawErrors)}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={({ target }: ChangeEvent<HTMLTextAreaElement>) => onChange(target.value === '' ? options.emptyValue : target.value)}
      onBlur={({ target, relatedTarget }: FocusEvent<HTMLTextAreaElement>) => {
        if (!isSubmitButton(relatedTarget)) onBlur(id, target.value);
      }}
      onFocus={({ target }: FocusEvent<HTMLTextAreaElement>) => onFocus(id, target.value)}
    />
    {counted !== undefined && <LengthCounter id={id} value={value} limit={counted} />}
    </>
  );
}
