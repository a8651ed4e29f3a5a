import { useEffect, useMemo, useState } from 'react';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { birthYearChoices, parseIsoDate, toJapaneseEra, type BirthYearKind } from '../../../domain/rules';
import { leavesGroup } from './groupFocus';
import { invalidOf } from './invalid';

const MONTHS = Array.from({ length: 12 }, (_, index) => index + 1);

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function kindOf(option: unknown): BirthYearKind {
  return option === 'child' || option === 'parent' ? option : 'general';
}

/** '和暦：平成2年' for the chosen date, or for the year alone (its last day: 1989 reads 平成元年). */
function eraLabel(parts: Parts): string {
  if (!parts.year) return '';
  try {
    return `和暦：${toJapaneseEra(isoOf(parts) ?? `${parts.year.padStart(4, '0')}-12-31`).label}`;
  } catch {
    return '';
  }
}

interface Parts {
  year: string;
  month: string;
  day: string;
}

function partsOf(value: unknown, defaultYear: number): Parts {
  const date = typeof value === 'string' ? parseIsoDate(value) : null;
  return date ? { year: String(date.year), month: String(date.month), day: String(date.day) } : { year: String(defaultYear), month: '', day: '' };
}

function isoOf({ year, month, day }: Parts): string | undefined {
  if (!year || !month || !day) return undefined;
  return `${year.padStart(4, '0')}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
}

/**
 * 生年月日 as three selects (年・月・日), as Japanese bank forms ask for it. The year list
 * and its preselected year come from birthYearChoices (ui:options.birthdayKind: general,
 * child or parent). The value is 'YYYY-MM-DD' once year, month and day are all chosen and
 * stays empty until then, so a half-chosen date is the 'required' error, not a wrong date.
 */
export function BirthdayWidget({ id, value, onChange, onBlur, onFocus, options, rawErrors, disabled, readonly, required }: WidgetProps) {
  const { years, defaultYear } = useMemo(() => birthYearChoices(kindOf(options.birthdayKind), new Date()), [options.birthdayKind]);
  const [parts, setParts] = useState<Parts>(() => partsOf(value, defaultYear));

  // Data set from outside (the stored application) shows in the selects.
  useEffect(() => {
    if (typeof value === 'string' && value !== isoOf(parts)) setParts(partsOf(value, defaultYear));
    // Only a new value from outside matters here; the parts follow it.
  }, [value]);

  const days = parts.year && parts.month ? daysIn(Number(parts.year), Number(parts.month)) : 31;
  const change = (key: keyof Parts, next: string) => {
    const updated = { ...parts, [key]: next };
    // 31 chosen, then February: the day no longer exists and must be chosen again.
    if (updated.year && updated.month && updated.day && Number(updated.day) > daysIn(Number(updated.year), Number(updated.month))) updated.day = '';
    setParts(updated);
    onChange(isoOf(updated) ?? options.emptyValue);
  };
  const invalid = invalidOf(rawErrors);
  const common = {
    className: 'select',
    disabled: disabled || readonly,
    'aria-invalid': invalid,
    'aria-required': required || undefined,
    'aria-describedby': `${ariaDescribedByIds(id)} ${id}__era`,
  };
  const yearOptions = years.includes(Number(parts.year)) || !parts.year ? years : [...years, Number(parts.year)].sort((a, b) => a - b);

  return (
    <div
      className="date-field"
      onBlur={(event) => {
        if (leavesGroup(event)) onBlur(id, isoOf(parts));
      }}
      onFocus={() => onFocus(id, isoOf(parts))}
    >
      <div className="date-selects">
        <span className="date-selects__part date-selects__part--year">
          <select id={id} autoComplete="bday-year" value={parts.year} onChange={(event) => change('year', event.target.value)} {...common}>
            {yearOptions.map((year) => (
              <option key={year} value={String(year)}>
                {year}
              </option>
            ))}
          </select>
          <label htmlFor={id}>年</label>
        </span>
        <span className="date-selects__part">
          <select id={`${id}__month`} autoComplete="bday-month" value={parts.month} onChange={(event) => change('month', event.target.value)} {...common}>
            <option value="">--</option>
            {MONTHS.map((month) => (
              <option key={month} value={String(month)}>
                {month}
              </option>
            ))}
          </select>
          <label htmlFor={`${id}__month`}>月</label>
        </span>
        <span className="date-selects__part">
          <select id={`${id}__day`} autoComplete="bday-day" value={parts.day} onChange={(event) => change('day', event.target.value)} {...common}>
            <option value="">--</option>
            {Array.from({ length: days }, (_, index) => index + 1).map((day) => (
              <option key={day} value={String(day)}>
                {day}
              </option>
            ))}
          </select>
          <label htmlFor={`${id}__day`}>日</label>
        </span>
      </div>
      {/* The Japanese era of the chosen year, as bank forms print it beside the western one. */}
      <p className="hint date-field__era" id={`${id}__era`}>
        {eraLabel(parts)}
      </p>
    </div>
  );
}
