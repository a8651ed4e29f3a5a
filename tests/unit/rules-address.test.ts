import { describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import {
  checkDistanceReason,
  checkPurposes,
  checkRomanNumerals,
  containsRomanNumerals,
  formatPostalCode,
  isSearchablePostalCode,
  needsDistanceReason,
  normalizePostalCode,
} from '../../src/domain/rules/index.js';

describe('postal code', () => {
  it.each([
    ['8600046', '8600046', '860-0046', true],
    ['860-0046', '8600046', '860-0046', true],
    ['８６０－００４６', '8600046', '860-0046', true],
    ['〒860-0046', '8600046', '860-0046', true],
    ['86000461', '8600046', '860-0046', true],
    ['860', '860', '860', false],
    ['8600', '8600', '860-0', false],
    ['', '', '', false],
  ])('%j → %j, shown %j, searchable %s', (input, normalised, shown, searchable) => {
    expect(normalizePostalCode(input)).toBe(normalised);
    expect(formatPostalCode(input)).toBe(shown);
    expect(isSearchablePostalCode(normalised)).toBe(searchable);
  });

  it('searches only 7 ASCII digits', () => {
    expect(isSearchablePostalCode('860-0046')).toBe(false);
    expect(isSearchablePostalCode('８６０００４６')).toBe(false);
  });
});

describe('roman numerals', () => {
  it.each([
    ['ハイツⅠ', messages.convertNumerals],
    ['ハイツⅫ', messages.convertNumerals],
    ['ハイツⅰ', messages.convertNumerals],
    ['ハイツⅿ', messages.convertNumerals],
    ['ↈ', messages.convertNumerals],
    ['ハイツ1', null],
    ['ハイツI', null], // latin I is fine
    ['', null],
    [null, null],
  ])('%j → %j', (text, expected) => {
    expect(checkRomanNumerals(text)).toBe(expected);
    expect(containsRomanNumerals(text)).toBe(expected !== null);
  });
});

describe('distance-transaction reason', () => {
  const fukuoka = { distanceTransactionReasonRequired: true, homePrefecture: '福岡県' };
  const kumamoto = { distanceTransactionReasonRequired: false, homePrefecture: '熊本県' };

  it.each([
    [fukuoka, '福岡県', null, false, null],
    [fukuoka, '佐賀県', null, true, messages.required],
    [fukuoka, '佐賀県', '　 ', true, messages.required],
    [fukuoka, '佐賀県', '福岡に勤務しているため', true, null],
    [fukuoka, '佐賀県', 'あ'.repeat(50), true, null],
    [fukuoka, '佐賀県', 'あ'.repeat(51), true, messages.distanceReasonTooLong],
    [fukuoka, '', null, false, null],
    [fukuoka, null, null, false, null],
    [kumamoto, '佐賀県', null, false, null],
  ])('%o living in %j, reason %j → needed %s, %j', (bank, prefecture, reason, needed, expected) => {
    expect(needsDistanceReason(bank, prefecture)).toBe(needed);
    expect(checkDistanceReason(bank, prefecture, reason)).toBe(expected);
  });
});

describe('checkPurposes', () => {
  const allowed = ['LIVING', 'SALARY', 'SAVINGS', 'OTHER'];
  it.each([
    [['LIVING'], null, null],
    [['LIVING', 'SALARY'], null, null],
    [[], null, messages.selectRequired],
    [null, null, messages.selectRequired],
    [['PUBLIC_SPORTS'], null, messages.badRequest], // not in this bank's list
    [['OTHER'], null, messages.purposeOtherRequired],
    [['OTHER'], ' ', messages.purposeOtherRequired],
    [['OTHER'], 'あ'.repeat(24), null],
    [['OTHER'], 'あ'.repeat(25), messages.purposeOtherTooLong],
    [['LIVING'], 'あ'.repeat(25), null], // text without OTHER is ignored
  ])('%j other=%j → %j', (selected, other, expected) => {
    expect(checkPurposes(selected, allowed, other)).toBe(expected);
  });
});
