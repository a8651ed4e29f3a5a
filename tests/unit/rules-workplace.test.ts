import { describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import {
  checkExistingAccount,
  checkOccupationOther,
  checkWorkplaceName,
  findForbiddenWorkplaceCharacters,
  isInvitationCodeShape,
  isWorkplaceCodeShape,
  normalizeWorkplaceCode,
  normalizeWorkplaceName,
  padExistingAccount,
} from '../../src/domain/rules/index.js';

describe('workplace and invitation codes', () => {
  it.each([
    ['ａｂｃ１２３', 'ABC123', true, true],
    [' abc123　', 'ABC123', true, true],
    ['AB123456', 'AB123456', true, false],
    ['ABC12', 'ABC12', false, false],
    ['ABC1234', 'ABC1234', false, false],
    ['ABC123456', 'ABC123456', false, false],
    ['', '', false, false],
  ])('%j → %j (workplace shape %s, invitation shape %s)', (input, normalised, workplace, invitation) => {
    const code = normalizeWorkplaceCode(input);
    expect(code).toBe(normalised);
    expect(isWorkplaceCodeShape(code)).toBe(workplace);
    expect(isInvitationCodeShape(code)).toBe(invitation);
  });
});

describe('normalizeWorkplaceName: company symbols expanded, full width, trimmed', () => {
  it.each([
    ['㈱ふくおか', '株式会社ふくおか'],
    ['ふくおか㈲', 'ふくおか有限会社'],
    ['㍿ABC', '株式会社ＡＢＣ'],
    ['  ABC Corp ', 'ＡＢＣ　Ｃｏｒｐ'],
    ['ｶﾞｽ会社', 'ガス会社'],
    ['　熊本市役所　', '熊本市役所'],
    ['(株)熊本', '（株）熊本'],
  ])('%j → %j', (input, expected) => {
    expect(normalizeWorkplaceName(input)).toBe(expected);
    expect(normalizeWorkplaceName(expected)).toBe(expected); // idempotent
  });
});

describe('findForbiddenWorkplaceCharacters', () => {
  it.each([
    ['株式会社ふくおか', []],
    ['（株）Ａ・Ｂ－Ｃ．', []],
    ['＜＋｜！￥＊；％', ['＜', '＋', '｜', '！', '￥', '＊', '；', '％']],
    ['※〒', ['※', '〒']],
    ['Ａ＜Ｂ＜Ｃ＞', ['＜', '＞']],
    ['A<B', ['<']],
  ])('%j → %j', (name, expected) => {
    expect(findForbiddenWorkplaceCharacters(name)).toEqual(expected);
  });
});

describe('checkWorkplaceName', () => {
  it.each([
    ['株式会社ふくおか', true, null],
    ['', true, messages.required],
    ['　', true, messages.required],
    [null, true, messages.required],
    [null, false, null],
    ['', false, null],
    ['＜', false, '＜は使用できません。'],
    ['Ａ<Ｂ', false, '＜は使用できません。'], // widened first, reported as shown
    ['※〒商事', true, messages.workplaceForbiddenCharacters('※〒')],
    ['第Ⅱ工場', true, messages.convertNumerals],
    ['あ'.repeat(25), true, null],
    ['あ'.repeat(26), true, messages.workplaceNameTooLong],
    ['𠮷'.repeat(25), true, null], // 25 code points (50 UTF-16 units)
    ['𠮷'.repeat(26), true, messages.workplaceNameTooLong],
    ['㈱' + 'あ'.repeat(21), true, null], // 株式会社 + 21 = 25
    ['㈱' + 'あ'.repeat(22), true, messages.workplaceNameTooLong], // expanded before counting
  ])('%j required=%s → %j', (name, required, expected) => {
    expect(checkWorkplaceName(name, required)).toBe(expected);
  });
});

describe('checkOccupationOther', () => {
  const other = { name: 'その他' };
  const employee = { name: '会社員' };
  it.each([
    [other, 'フリーランス', null],
    [other, '', messages.required],
    [other, null, messages.required],
    [other, 'あ'.repeat(25), null],
    [other, 'あ'.repeat(26), messages.occupationOtherTooLong],
    [employee, null, null],
    [employee, 'あ'.repeat(26), null],
    [undefined, null, null],
  ])('%o %j → %j', (occupation, text, expected) => {
    expect(checkOccupationOther(occupation, text)).toBe(expected);
  });
});

describe('existing account', () => {
  it.each([
    ['123', '1234567', { branchCode: '123', accountNumber: '1234567' }, null],
    ['12', '3456', { branchCode: '012', accountNumber: '0003456' }, null],
    ['１', '１２', { branchCode: '001', accountNumber: '0000012' }, null],
    ['1234', '1234567', { branchCode: '1234', accountNumber: '1234567' }, messages.existingAccount],
    ['123', '12345678', { branchCode: '123', accountNumber: '12345678' }, messages.existingAccount],
    ['', '1234567', { branchCode: '000', accountNumber: '1234567' }, messages.existingAccount],
    ['123', '', { branchCode: '123', accountNumber: '0000000' }, messages.existingAccount],
    ['12a', '1234567', { branchCode: '12a', accountNumber: '1234567' }, messages.existingAccount],
  ])('%j %j → padded %o, %j', (branch, account, padded, expected) => {
    expect(padExistingAccount(branch, account)).toEqual(padded);
    expect(checkExistingAccount(branch, account)).toBe(expected);
  });
});
