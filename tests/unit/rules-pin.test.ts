import { describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import {
  addressPinForms,
  birthdayPinForms,
  firstPinError,
  phonePinForms,
  pinContextOf,
  pinRuleErrors,
  type PinContext,
} from '../../src/domain/rules/index.js';

/** An applicant with every field the rules read; forbidden values listed per rule below. */
const applicant: PinContext = {
  birthday: '1990-05-01', // 平成2年
  mobilePhoneNumber: '090-1357-2468',
  phoneNumber: '092-711-3690',
  workplacePhoneNumber: '096-325-4817',
  address: '福岡県福岡市中央区天神１丁目',
  subAddress: '8-1 天神ビル203',
  kanaAddress: 'ﾌｸｵｶｹﾝﾌｸｵｶｼﾁｭｳｵｳｸﾃﾝｼﾞﾝ1ﾁｮｳﾒ',
  kanaSubAddress: '8-1 ﾃﾝｼﾞﾝﾋﾞﾙ207',
  tempAddress: null,
  kanaTempAddress: null,
};

/** No registered address; a temporary one instead (spec: 'no matching address'). */
const withTemporaryAddress: PinContext = {
  ...applicant,
  address: null,
  subAddress: null,
  kanaAddress: null,
  kanaSubAddress: null,
  tempAddress: '熊本市中央区水前寺6丁目18-1 コーポ305',
  kanaTempAddress: 'ｸﾏﾓﾄｼﾁｭｳｵｳｸｽｲｾﾞﾝｼﾞ6ﾁｮｳﾒ18-1 ｺｰﾎﾟ405',
};

describe('firstPinError: the spec wording, one rule at a time', () => {
  it.each([
    // 1. four half-width digits: 暗証番号は4桁の半角数字で入力してください。
    ['', '', applicant, messages.pinFormat],
    ['123', '123', applicant, messages.pinFormat],
    ['12345', '12345', applicant, messages.pinFormat],
    ['12a4', '12a4', applicant, messages.pinFormat],
    ['１２３４', '１２３４', applicant, messages.pinFormat],
    [' 258', ' 258', applicant, messages.pinFormat],
    ['12', '13', applicant, messages.pinFormat],
    // 2. both entries equal: 暗証番号が一致しません。再度入力してください。
    ['2580', '2581', applicant, messages.pinMismatch],
    ['2580', '', applicant, messages.pinMismatch],
    // 3. four identical digits: 入力された暗証番号は設定できません。
    ['0000', '0000', applicant, messages.pinForbidden],
    ['7777', '7777', applicant, messages.pinForbidden],
    ['9999', '9999', applicant, messages.pinForbidden],
    // 4. the birthday 1990-05-01 (平成2年): 生年月日は暗証番号に利用できません。
    ['1990', '1990', applicant, messages.pinBirthday], // YYYY
    ['0501', '0501', applicant, messages.pinBirthday], // MMDD
    ['0105', '0105', applicant, messages.pinBirthday], // DDMM
    ['9005', '9005', applicant, messages.pinBirthday], // YYMM
    ['0590', '0590', applicant, messages.pinBirthday], // MMYY
    ['9001', '9001', applicant, messages.pinBirthday], // YYDD
    ['0190', '0190', applicant, messages.pinBirthday], // DDYY
    ['0205', '0205', applicant, messages.pinBirthday], // EEMM (平成02年05月)
    ['0502', '0502', applicant, messages.pinBirthday], // MMEE
    ['0201', '0201', applicant, messages.pinBirthday], // EEDD
    ['0102', '0102', applicant, messages.pinBirthday], // DDEE
    // 5. last 4 digits of a phone: 電話番号の一部は暗証番号に利用できません。
    ['2468', '2468', applicant, messages.pinPhone], // mobile
    ['3690', '3690', applicant, messages.pinPhone], // home
    ['4817', '4817', applicant, messages.pinPhone], // workplace
    // 6. first or last 4 digits of an address: 住所の一部は暗証番号に利用できません。
    ['1812', '1812', applicant, messages.pinAddress], // address + remainder: 1 8 1 203 → first
    ['1203', '1203', applicant, messages.pinAddress], // … last
    ['8120', '8120', applicant, messages.pinAddress], // remainder alone (8-1 …203) → first
    ['1207', '1207', applicant, messages.pinAddress], // kana address + kana remainder → last
    ['6181', '6181', withTemporaryAddress, messages.pinAddress], // temporary address → first
    ['1305', '1305', withTemporaryAddress, messages.pinAddress], // … last
    ['1405', '1405', withTemporaryAddress, messages.pinAddress], // kana temporary address → last
    // allowed
    ['2580', '2580', applicant, null],
    ['7391', '7391', applicant, null],
    ['1234', '1234', applicant, null],
    ['1812', '1812', withTemporaryAddress, null],
    ['2468', '2468', {}, null],
  ])('%j / %j → %j', (pin, confirmation, context, expected) => {
    expect(firstPinError(pin, confirmation, context)).toBe(expected);
  });

  it('reports the earliest rule when several are broken', () => {
    const context: PinContext = { birthday: '1990-05-01', mobilePhoneNumber: '090-1234-1990', subAddress: '1990' };
    expect(firstPinError('1990', '1990', context)).toBe(messages.pinBirthday);
    expect(firstPinError('1990', '1991', context)).toBe(messages.pinMismatch);
    expect(firstPinError('１９９０', '1990', context)).toBe(messages.pinFormat);
    expect(firstPinError('1111', '1111', { mobilePhoneNumber: '090-1111-1111' })).toBe(messages.pinForbidden);
    expect(firstPinError('2468', '2468', { ...applicant, subAddress: '2468' })).toBe(messages.pinPhone);
  });
});

describe('birthdayPinForms', () => {
  it('lists YYYY, MMDD, DDMM, YYMM, MMYY, YYDD, DDYY and the era year forms EEMM, MMEE, EEDD, DDEE', () => {
    expect(birthdayPinForms('1990-05-01')).toEqual([
      '1990', '0501', '0105', '9005', '0590', '9001', '0190', '0205', '0502', '0201', '0102',
    ]);
    // 2005: YY is 05; 平成17年.
    expect(birthdayPinForms('2005-12-24')).toEqual([
      '2005', '1224', '2412', '0512', '1205', '0524', '2405', '1712', '1217', '1724', '2417',
    ]);
  });

  it.each([
    // date, era year as EE, a form only the era year makes, a form of the neighbouring era
    ['1989-01-07', '昭和64年', '6401', '0101'],
    ['1989-01-08', '平成元年', '0101', '6401'],
    ['2019-04-30', '平成31年', '3104', '0101'],
    ['2019-05-01', '令和元年', '0101', '3105'],
  ])('%s (%s): %s is refused, %s is not', (birthday, _era, refused, allowed) => {
    expect(birthdayPinForms(birthday)).toContain(refused);
    expect(birthdayPinForms(birthday)).not.toContain(allowed);
    expect(firstPinError(refused, refused, { birthday })).toBe(messages.pinBirthday);
    expect(firstPinError(allowed, allowed, { birthday })).toBeNull();
  });

  it('adds nothing for a missing or unreal birthday', () => {
    expect(birthdayPinForms(null)).toEqual([]);
    expect(birthdayPinForms('1990-02-30')).toEqual([]);
    expect(firstPinError('0230', '0230', { birthday: '1990-02-30' })).toBeNull();
  });
});

describe('phonePinForms and addressPinForms', () => {
  it('take the last 4 digits of each phone given', () => {
    expect(phonePinForms(applicant)).toEqual(['2468', '3690', '4817']);
    expect(phonePinForms({ mobilePhoneNumber: '080-0000-1122', phoneNumber: null, workplacePhoneNumber: '' })).toEqual([
      '1122',
    ]);
  });

  it('take first and last 4 digits of each address text, full-width digits included', () => {
    expect(addressPinForms(applicant)).toEqual(['1812', '1203', '8120', '1207']);
    expect(addressPinForms({ subAddress: '１－２－３' })).toEqual([]);
    expect(addressPinForms({ subAddress: '１２－３４５' })).toEqual(['1234', '2345']);
  });
});

describe('pinContextOf: one context for the page and the server', () => {
  /** GET /api/applications of a child application, with fields the rules do not read. */
  const child = { ...applicant, workplacePhoneNumber: null, lastName: '山田', applicationType: 'CHILD' };
  const parent = {
    lastName: '山田',
    birthday: '1965-08-17', // 昭和40年
    mobilePhoneNumber: '080-2468-9753',
    phoneNumber: '092-555-6420',
    workplacePhoneNumber: '092-401-3571',
    relationship: 'FATHER',
  };

  it("keeps only what the rules read, and the parent's birthday and phones", () => {
    expect(pinContextOf(child, parent)).toEqual({
      birthday: '1990-05-01',
      mobilePhoneNumber: '090-1357-2468',
      phoneNumber: '092-711-3690',
      workplacePhoneNumber: null,
      address: applicant.address,
      subAddress: applicant.subAddress,
      kanaAddress: applicant.kanaAddress,
      kanaSubAddress: applicant.kanaSubAddress,
      tempAddress: null,
      kanaTempAddress: null,
      parent: { birthday: '1965-08-17', mobilePhoneNumber: '080-2468-9753', phoneNumber: '092-555-6420', workplacePhoneNumber: '092-401-3571' },
    });
    expect(pinContextOf(applicant, null).parent).toBeNull();
    expect(pinContextOf(null, null)).toMatchObject({ birthday: null, parent: null });
  });

  it.each([
    ['1965', messages.pinBirthday], // YYYY
    ['0817', messages.pinBirthday], // MMDD
    ['1708', messages.pinBirthday], // DDMM
    ['6517', messages.pinBirthday], // YYDD
    ['4008', messages.pinBirthday], // EEMM (昭和40年08月)
    ['1740', messages.pinBirthday], // DDEE
    ['9753', messages.pinPhone], // mobile
    ['6420', messages.pinPhone], // home
    ['3571', messages.pinPhone], // workplace
  ])("refuses %s, taken from the parent's data, for a child application only", (pin, message) => {
    expect(firstPinError(pin, pin, pinContextOf(child, parent))).toBe(message);
    expect(firstPinError(pin, pin, pinContextOf(child, null))).toBeNull();
  });

  it("still refuses the child's own birthday, phones and address with a parent", () => {
    const context = pinContextOf(child, parent);
    expect(firstPinError('0501', '0501', context)).toBe(messages.pinBirthday);
    expect(firstPinError('2468', '2468', context)).toBe(messages.pinPhone);
    expect(firstPinError('1203', '1203', context)).toBe(messages.pinAddress);
    expect(firstPinError('2580', '2580', context)).toBeNull();
    expect(phonePinForms(context)).toEqual(['2468', '3690', '9753', '6420', '3571']);
  });
});

describe('pinRuleErrors', () => {
  it('addresses the mismatch to the confirmation and every other rule to the PIN', () => {
    expect(pinRuleErrors('2580', '2581', applicant)).toEqual([{ field: 'pinConfirmation', message: messages.pinMismatch }]);
    expect(pinRuleErrors('0501', '0501', applicant)).toEqual([{ field: 'pin', message: messages.pinBirthday }]);
    expect(pinRuleErrors('2580', '2580', applicant)).toEqual([]);
  });

  it('uses the spec wording', () => {
    expect(messages.pinMismatch).toBe('暗証番号が一致しません。再度入力してください。');
    expect(messages.pinFormat).toBe('暗証番号は4桁の半角数字で入力してください。');
    expect(messages.pinForbidden).toBe('入力された暗証番号は設定できません。');
    expect(messages.pinBirthday).toBe('生年月日は暗証番号に利用できません。');
    expect(messages.pinPhone).toBe('電話番号の一部は暗証番号に利用できません。');
    expect(messages.pinAddress).toBe('住所の一部は暗証番号に利用できません。');
  });
});
