/**
 * Birthday rules (spec section 5, "Birthday") and the Japanese era of a date.
 *
 * "Today" is the calendar day in Japan: the server may run in UTC and the browser in any
 * zone, but an applicant in Kumamoto turns 18 on their birthday in Japan. Japan has had no
 * daylight saving since 1951, so Japan time is UTC+9 throughout and needs no tz database.
 * Every `today` parameter accepts a Date (taken in Japan time) or a 'YYYY-MM-DD' string
 * (taken as is; handy in tests and when the day is already known).
 */
import { messages } from '../messages.js';

export type Today = Date | string;

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** Japan's offset from UTC (no daylight saving time). */
export const JAPAN_OFFSET_MS = 9 * 60 * 60 * 1000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export const MINIMUM_ADULT_AGE = 18;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** 'YYYY-MM-DD' → parts, or null unless it is a day of the Gregorian calendar. */
export function parseIsoDate(value: string | null | undefined): CalendarDate | null {
  const match = ISO_DATE.exec(value ?? '');
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

/**
 * True for a real calendar day written YYYY-MM-DD ('2001-02-29' and '2001-2-3' are not).
 * No plausibility bounds: the year select offers 100 years, the age rules do the rest.
 */
export function isRealDate(value: string | null | undefined): boolean {
  return parseIsoDate(value) !== null;
}

/** The calendar day in Japan of `today`. Throws on a malformed string (a programming error). */
export function japanDate(today: Today): CalendarDate {
  if (typeof today === 'string') {
    const parsed = parseIsoDate(today);
    if (!parsed) throw new RangeError(`not a YYYY-MM-DD date: ${today}`);
    return parsed;
  }
  const shifted = new Date(today.getTime() + JAPAN_OFFSET_MS);
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

/** The calendar day in Japan of `today` as 'YYYY-MM-DD'. */
export function japanIsoDate(today: Today): string {
  const { year, month, day } = japanDate(today);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function compareDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/**
 * Age in full years on `today`, by the ordinary rule: one year older ON the birthday
 * (not, as the Act on Calculation of Age has it, at the end of the day before). Someone
 * born on 29 February gets a year older on 1 March in common years. Negative for a
 * birthday after today; null for a birthday that is not a real date.
 */
export function ageOn(birthday: string, today: Today): number | null {
  const born = parseIsoDate(birthday);
  if (!born) return null;
  const now = japanDate(today);
  const beforeBirthdayThisYear = now.month < born.month || (now.month === born.month && now.day < born.day);
  return now.year - born.year - (beforeBirthdayThisYear ? 1 : 0);
}

/** General applicant: real date, 18 or over. */
export function checkGeneralAge(birthday: string, today: Today): string | null {
  const age = ageOn(birthday, today);
  if (age === null) return messages.birthdayInvalid;
  return age < MINIMUM_ADULT_AGE ? messages.generalUnder18 : null;
}

/** Child: real date, born (today at the latest) and under 18. */
export function checkChildAge(birthday: string, today: Today): string | null {
  const born = parseIsoDate(birthday);
  const age = ageOn(birthday, today);
  if (!born || age === null) return messages.birthdayInvalid;
  const bornAfterToday = compareDates(born, japanDate(today)) > 0;
  return bornAfterToday || age >= MINIMUM_ADULT_AGE ? messages.childAge : null;
}

/** Parent applying as proxy: real date, 18 or over. */
export function checkParentAge(birthday: string, today: Today): string | null {
  const age = ageOn(birthday, today);
  if (age === null) return messages.birthdayInvalid;
  return age < MINIMUM_ADULT_AGE ? messages.parentUnder18 : null;
}

export type BirthYearKind = 'general' | 'child' | 'parent';

export interface BirthYearChoices {
  /** Oldest to newest, as Japanese bank forms list them. */
  years: number[];
  /** The year preselected in the select. */
  defaultYear: number;
}

/** Preselected year for adults: general per spec (1990); parent 1985 (a plausible parent of a minor). */
const ADULT_DEFAULT_YEAR: Readonly<Record<Exclude<BirthYearKind, 'child'>, number>> = {
  general: 1990,
  parent: 1985,
};

/**
 * The birth-year select. Child: this year − 18 .. this year, default this year (spec).
 * General and parent: this year − 100 .. this year − 18 (someone born in this year − 18
 * may still be 17; the age rule says so), default 1990 / 1985, clamped into the range.
 */
export function birthYearChoices(kind: BirthYearKind, today: Today): BirthYearChoices {
  const thisYear = japanDate(today).year;
  const [first, last, preferred] =
    kind === 'child'
      ? [thisYear - MINIMUM_ADULT_AGE, thisYear, thisYear]
      : [thisYear - 100, thisYear - MINIMUM_ADULT_AGE, ADULT_DEFAULT_YEAR[kind]];
  const years = Array.from({ length: last - first + 1 }, (_, index) => first + index);
  return { years, defaultYear: Math.min(Math.max(preferred, first), last) };
}

export interface JapaneseEraYear {
  /** Era name, e.g. '平成'. */
  era: string;
  /** Year of the era; the first year (元年) is 1. */
  year: number;
  /** As written on forms: '平成元年', '平成2年'. */
  label: string;
}

// Created once: constructing Intl formatters is comparatively slow. UTC on both sides so
// the day given is the day formatted, whatever the zone of the machine.
const eraFormat = new Intl.DateTimeFormat('ja-JP-u-ca-japanese', { era: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * The Japanese era year of a 'YYYY-MM-DD' day (or a Date, taken in Japan time), from the
 * platform's Intl data: 1989-01-07 昭和64年, 1989-01-08 平成元年, 2019-04-30 平成31年,
 * 2019-05-01 令和元年. Recent ICU writes the first year as '元', older as '1'; both read
 * as year 1. Used for the stored eraBirthday and the PIN's birthday rule. Throws a
 * RangeError on an invalid date (callers validate the birthday first).
 */
export function toJapaneseEra(date: string | Date): JapaneseEraYear {
  const day = typeof date === 'string' ? parseIsoDate(date) : japanDate(date);
  if (!day) throw new RangeError(`not a YYYY-MM-DD date: ${String(date)}`);
  const utc = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0-99 to 1900-1999.
  utc.setUTCFullYear(day.year, day.month - 1, day.day);
  const parts = eraFormat.formatToParts(utc);
  const era = parts.find((part) => part.type === 'era')?.value;
  const yearText = parts.find((part) => part.type === 'year')?.value;
  if (!era || !yearText) throw new RangeError('the Japanese calendar is not available in this Intl implementation');
  const year = yearText === '元' ? 1 : Number(yearText);
  return { era, year, label: `${era}${year === 1 ? '元' : year}年` };
}
