import { useEffect, useState, type ClipboardEvent } from 'react';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { joinPhone, normalizeDigits, splitPhone, type PhoneParts } from '../../../domain/rules';
import type { WidgetBehaviour } from './behaviour';
import { ImeSafeInput } from './ImeSafeInput';
import { leavesGroup } from './groupFocus';
import { invalidOf } from './invalid';

const DEFAULT_LABELS: PhoneParts = ['市外局番', '市内局番', '加入者番号'];
const DEFAULT_MAX_LENGTHS: [number, number, number] = [5, 4, 4];
const AUTOCOMPLETE: PhoneParts = ['tel-area-code', 'tel-local-prefix', 'tel-local-suffix'];

function triple<T>(option: unknown, fallback: [T, T, T]): [T, T, T] {
  return Array.isArray(option) && option.length === 3 ? (option as [T, T, T]) : fallback;
}

/** A whole number pasted or autofilled into one box: '090-1234-5678' or '09012345678' (mobile). */
function splitWhole(text: string): PhoneParts | null {
  const digits = normalizeDigits(text).replace(/[\s\u3000]/g, '');
  const hyphenated = digits.replace(/[‐－ー−]/g, '-').split('-');
  if (hyphenated.length === 3 && hyphenated.every((part) => /^\d+$/.test(part))) return hyphenated as PhoneParts;
  if (/^0[5789]0\d{8}$/.test(digits)) return [digits.slice(0, 3), digits.slice(3, 7), digits.slice(7)];
  return null;
}

/**
 * A phone number in three boxes (市外局番・市内局番・加入者番号), as Japanese forms ask for
 * it; the value is the hyphenated string (joinPhone), or empty when all three are empty.
 * Full-width digits typed with the IME on become half-width when the applicant leaves a box.
 * ui:options: partLabels, maxLengths, placeholders (three each).
 */
export function PhoneWidget({ id, value, onChange, onBlur, onFocus, options, rawErrors, disabled, readonly, required }: WidgetProps) {
  const labels = triple<string>(options.partLabels, DEFAULT_LABELS);
  const maxLengths = triple<number>(options.maxLengths, DEFAULT_MAX_LENGTHS);
  const placeholders = triple<string>(options.placeholders, ['', '', '']);
  const [parts, setParts] = useState<PhoneParts>(() => splitPhone(typeof value === 'string' ? value : null) ?? ['', '', '']);

  // A value set from outside (the stored application) shows in the boxes.
  useEffect(() => {
    const current = joinPhone(parts) ?? undefined;
    const incoming = typeof value === 'string' && value !== '' ? value : undefined;
    if (incoming !== current) setParts(splitPhone(incoming) ?? ['', '', '']);
  }, [value]);

  const update = (next: PhoneParts) => {
    setParts(next);
    onChange(joinPhone(next) ?? options.emptyValue);
  };
  const changePart = (index: number, text: string) => {
    const next: PhoneParts = [...parts];
    next[index] = text;
    update(next);
  };
  const onPaste = (index: number) => (event: ClipboardEvent<HTMLInputElement>) => {
    const whole = splitWhole(event.clipboardData.getData('text'));
    if (index === 0 && whole) {
      event.preventDefault();
      update(whole);
    }
  };
  const ids = [id, `${id}__2`, `${id}__3`];
  const invalid = invalidOf(rawErrors);

  return (
    <div
      className="phone-inputs"
      onBlur={(event) => {
        if (leavesGroup(event)) onBlur(id, joinPhone(parts) ?? undefined);
      }}
      onFocus={() => onFocus(id, joinPhone(parts) ?? undefined)}
    >
      {parts.map((part, index) => (
        <span className="phone-inputs__part" key={ids[index]}>
          {index > 0 && (
            <span className="phone-inputs__hyphen" aria-hidden="true">
              -
            </span>
          )}
          <ImeSafeInput
            id={ids[index]}
            type="tel"
            inputMode="numeric"
            className="input phone-inputs__input"
            autoComplete={AUTOCOMPLETE[index]}
            aria-label={labels[index]}
            maxLength={maxLengths[index]}
            placeholder={placeholders[index] || undefined}
            value={part}
            disabled={disabled}
            readOnly={readonly}
            aria-invalid={invalid}
            aria-required={required || options.requirement === 'required' || undefined}
            aria-describedby={ariaDescribedByIds(id)}
            onPaste={onPaste(index)}
            onValueChange={(text) => changePart(index, text)}
            onLeave={(text) => {
              const converted = normalizeDigits(text).replace(/[\s\u3000]/g, '');
              if (converted !== text) changePart(index, converted);
            }}
          />
        </span>
      ))}
    </div>
  );
}

/** A stored phone the three boxes cannot show (spec section 8): our data's fault, the error page rather than a wrong number. */
export const phoneBehaviour: WidgetBehaviour = {
  open: async (data, { field }) => {
    const value = data[field];
    if (typeof value === 'string' && value !== '' && splitPhone(value) === null) throw new Error(`the stored ${field} does not split into three parts`);
    return null;
  },
};
