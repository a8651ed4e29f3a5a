import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { PREFECTURES } from '../../../domain/prefectures';
import { isSubmitButton } from './ImeSafeInput';
import { invalidOf } from './invalid';

/** The 47 prefectures in JIS order as a select (autocomplete address-level1). */
export function PrefectureSelectWidget({ id, htmlName, value, onChange, onBlur, onFocus, options, rawErrors, disabled, readonly, required }: WidgetProps) {
  return (
    <select
      id={id}
      name={htmlName || id}
      className="select"
      autoComplete="address-level1"
      value={typeof value === 'string' ? value : ''}
      disabled={disabled || readonly}
      aria-invalid={invalidOf(rawErrors)}
      aria-required={required || options.requirement === 'required' || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(event) => onChange(event.target.value === '' ? options.emptyValue : event.target.value)}
      onBlur={(event) => {
        if (!isSubmitButton(event.relatedTarget)) onBlur(id, event.target.value);
      }}
      onFocus={(event) => onFocus(id, event.target.value)}
    >
      <option value="">選択してください</option>
      {PREFECTURES.map((prefecture) => (
        <option key={prefecture} value={prefecture}>
          {prefecture}
        </option>
      ))}
    </select>
  );
}
