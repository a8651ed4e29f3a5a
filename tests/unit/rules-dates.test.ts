import { describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import {
  ageOn,
  birthYearChoices,
  checkChildAge,
  checkGeneralAge,
  checkParentAge,
  isRealDate,
  japanIsoDate,
  toJapaneseEra,
} from '../../src/domain/rules/index.js';

const TODAY = '2025-06-15';

describe('isRealDate', () => {
  it.each([
    ['2000-02-29', true],
    ['1900-02-29', false],
    ['2001-02-29', false],
    ['2024-04-31', false],
    ['2024-12-31', true],
    ['2024-13-01', false],
    ['2024-00-10', false],
    ['2024-1-01', false],
    ['20240101', false],
    ['', false],
    ['2024-01-01T00:00', false],
  ])('%j → %s', (value, expected) => {
    expect(isRealDate(value)).toBe(expected);
  });
});

describe('ageOn: one year older on the birthday itself', () => {
  it.each([
    ['2007-06-15', TODAY, 18],
    ['2007-06-16', TODAY, 17],
    ['2007-06-14', TODAY, 18],
    ['2025-06-15', TODAY, 0],
    ['2025-06-16', TODAY, -1],
    ['2004-02-29', '2025-02-28', 20],
    ['2004-02-29', '2025-03-01', 21],
    ['2004-02-29', '2024-02-29', 20],
    ['2001-02-29', TODAY, null],
  ])('born %s, on %s → %j', (birthday, today, expected) => {
    expect(ageOn(birthday, today)).toBe(expected);
  });

  it('takes "today" of a Date in Japan time', () => {
    // 2025-06-14 15:00 UTC is 2025-06-15 00:00 in Japan: the 18th birthday has come.
    const justAfterMidnightInJapan = new Date('2025-06-14T15:00:00Z');
    expect(japanIsoDate(justAfterMidnightInJapan)).toBe('2025-06-15');
    expect(ageOn('2007-06-15', justAfterMidnightInJapan)).toBe(18);
    expect(ageOn('2007-06-15', new Date('2025-06-14T14:59:59Z'))).toBe(17);
  });
});

describe('checkGeneralAge: 18 or over', () => {
  it.each([
    ['2007-06-15', null], // 18th birthday today
    ['2007-06-16', messages.generalUnder18], // turns 18 tomorrow
    ['1990-01-01', null],
    ['2030-01-01', messages.generalUnder18],
    ['2007-02-30', messages.birthdayInvalid],
    ['', messages.birthdayInvalid],
  ])('%j → %j', (birthday, expected) => {
    expect(checkGeneralAge(birthday, TODAY)).toBe(expected);
  });
});

describe('checkChildAge: born and under 18', () => {
  it.each([
    ['2025-06-15', null], // born today
    ['2025-06-16', messages.childAge], // born tomorrow
    ['2007-06-16', null], // 17, turns 18 tomorrow
    ['2007-06-15', messages.childAge], // 18 today
    ['2000-01-01', messages.childAge],
    ['2025-02-29', messages.birthdayInvalid],
  ])('%j → %j', (birthday, expected) => {
    expect(checkChildAge(birthday, TODAY)).toBe(expected);
  });
});

describe('checkParentAge: 18 or over', () => {
  it.each([
    ['2007-06-15', null],
    ['2007-06-16', messages.parentUnder18],
    ['1985-04-01', null],
    ['1985-04-31', messages.birthdayInvalid],
  ])('%j → %j', (birthday, expected) => {
    expect(checkParentAge(birthday, TODAY)).toBe(expected);
  });
});

describe('birthYearChoices: oldest to newest', () => {
  it.each([
    ['child', 2007, 2025, 2025],
    ['general', 1925, 2007, 1990],
    ['parent', 1925, 2007, 1985],
  ] as const)('%s: %i..%i, default %i', (kind, first, last, defaultYear) => {
    const choices = birthYearChoices(kind, TODAY);
    expect(choices.years[0]).toBe(first);
    expect(choices.years.at(-1)).toBe(last);
    expect(choices.years).toHaveLength(last - first + 1);
    expect(choices.defaultYear).toBe(defaultYear);
  });

  it('uses the year in Japan (New Year in Japan, still 31 December in UTC)', () => {
    expect(birthYearChoices('child', new Date('2025-12-31T15:00:00Z')).defaultYear).toBe(2026);
  });
});

describe('toJapaneseEra', () => {
  it.each([
    ['1989-01-07', '昭和', 64, '昭和64年'],
    ['1989-01-08', '平成', 1, '平成元年'],
    ['1990-05-01', '平成', 2, '平成2年'],
    ['2019-04-30', '平成', 31, '平成31年'],
    ['2019-05-01', '令和', 1, '令和元年'],
    ['2025-06-15', '令和', 7, '令和7年'],
    ['1926-12-24', '大正', 15, '大正15年'],
    ['1926-12-25', '昭和', 1, '昭和元年'],
    ['1960-01-01', '昭和', 35, '昭和35年'],
  ])('%s → %s %i (%s)', (date, era, year, label) => {
    expect(toJapaneseEra(date)).toEqual({ era, year, label });
  });

  it('takes a Date in Japan time', () => {
    expect(toJapaneseEra(new Date('2019-04-30T15:00:00Z')).label).toBe('令和元年');
  });

  it('refuses an invalid date', () => {
    expect(() => toJapaneseEra('2019-02-30')).toThrow(RangeError);
  });
});
