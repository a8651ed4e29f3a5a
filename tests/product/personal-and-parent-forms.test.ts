import { describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import type { FormRuleContext } from '../../src/domain/rules/registry.js';
import { judgeForm } from '../support/judge-form';
import { spec } from './spec';

/**
 * The shipped personal and parent forms (schemas/personal.schema.json, parent.schema.json,
 * workplace.schema.json) judged as the server judges a post: their schema, their conditions and
 * their named rules, against the messages of spec section 5.
 */

type Context = Omit<FormRuleContext, 'saved'> & { saved?: FormRuleContext['saved'] };

const bank0177: FormRuleContext['bank'] = {
  code: '0177',
  distanceTransactionReasonRequired: true,
  homePrefecture: '福岡県',
  UTILIZATION_PURPOSE_LIST: [{ value: 'LIVING' }, { value: 'PUBLIC_SPORTS' }, { value: 'OTHER' }],
};
const bank0587: FormRuleContext['bank'] = {
  code: '0587',
  distanceTransactionReasonRequired: false,
  homePrefecture: '熊本県',
  UTILIZATION_PURPOSE_LIST: [{ value: 'LIVING' }, { value: 'OTHER' }],
};
const general: Context = { applicationType: 'GENERAL', bank: bank0177, today: '2025-06-15' };
const child: Context = { ...general, applicationType: 'CHILD' };

/** A personal post as the server has it once it derived the searched address (addressPrefecture). */
const valid: Record<string, unknown> = {
  lastName: '山田',
  firstName: '太郎',
  kanaLastName: 'ﾔﾏﾀﾞ',
  kanaFirstName: 'ﾀﾛｳ',
  birthday: '1990-01-01',
  gender: 'MAN',
  mobilePhoneNumber: '090-1234-5678',
  phoneNumber: null,
  noMatchingAddress: false,
  postalNumber: '8100001',
  addressCode: '40133000001',
  addressPrefecture: '福岡県',
  subAddress: '1-1',
  kanaSubAddress: '1-1',
  utilizationPurpose: ['LIVING'],
};

const personal = (answers: Record<string, unknown>, context: Context) =>
  judgeForm('personal', answers, { saved: {}, ...context }, context.applicationType === 'CHILD' ? 'child' : 'general');

describe('the personal form (schemas/personal.schema.json)', () => {
  it.each<[string, string, Record<string, unknown>, Context, { field: string; message: string }[]]>([
    ['§5 Names', 'a valid general body', {}, general, []],
    ['§5 Names', 'combined length including the full-width space at most 24: 24', { lastName: '山'.repeat(12), firstName: '太'.repeat(11) }, general, []],
    ['§5 Names', 'combined length including the full-width space at most 24: 25', { lastName: '山'.repeat(12), firstName: '太'.repeat(12) }, general, [{ field: 'lastName', message: messages.nameTooLong }]],
    [
      '§5 Names',
      'unusable characters reported as \'X は使用できません。\'',
      { lastName: '𠮷田', firstName: '花①' },
      general,
      [
        { field: 'lastName', message: messages.unusableCharacters('𠮷') },
        { field: 'firstName', message: messages.unusableCharacters('①') },
      ],
    ],
    ['§5 Kana names', 'combined at most 48', { kanaLastName: 'ｱ'.repeat(24), kanaFirstName: 'ｱ'.repeat(24) }, general, [{ field: 'kanaLastName', message: messages.kanaNameTooLong }]],
    ['§5 Birthday', 'general applicant: 18 or over (18 today)', { birthday: '2007-06-15' }, general, []],
    ['§5 Birthday', 'general applicant: 18 or over (17)', { birthday: '2007-06-16' }, general, [{ field: 'birthday', message: messages.generalUnder18 }]],
    ['§5 Birthday', 'child: already born and under 18 (born today)', { birthday: '2025-06-15' }, child, []],
    ['§5 Birthday', 'child: already born and under 18 (18)', { birthday: '2007-06-15' }, child, [{ field: 'birthday', message: messages.childAge }]],
    [
      '§5 Mobile phone, Home phone',
      'the formats',
      { mobilePhoneNumber: '060-1234-5678', phoneNumber: '092-12-3456' },
      general,
      [
        { field: 'mobilePhoneNumber', message: messages.mobilePhone },
        { field: 'phoneNumber', message: messages.homePhone },
      ],
    ],
    ['§5 Home phone', 'optional; either empty (two hyphens only)', { phoneNumber: '--' }, general, []],
    ['§5 Distance reason', 'bank 0177, resident outside its home prefecture: required', { addressPrefecture: '佐賀県' }, general, [{ field: 'distanceTransactionReason', message: messages.required }]],
    [
      '§5 Distance reason',
      'a temporary address outside the home prefecture: required',
      { noMatchingAddress: true, postalNumber: null, addressCode: null, addressPrefecture: null, subAddress: null, kanaSubAddress: null, tempAddressPrefecture: '山口県', tempAddress: '下関市1-1', kanaTempAddress: 'ｼﾓﾉｾｷｼ1-1' },
      general,
      [{ field: 'distanceTransactionReason', message: messages.required }],
    ],
    ['§5 Distance reason', '1 to 50 characters', { addressPrefecture: '佐賀県', distanceTransactionReason: 'あ'.repeat(51) }, general, [{ field: 'distanceTransactionReason', message: messages.distanceReasonTooLong }]],
    ['§5 Distance reason', 'given', { addressPrefecture: '佐賀県', distanceTransactionReason: '通勤先のため' }, general, []],
    ['§3 Bank configuration', 'the distance-transaction reason applies only to bank 0177', { addressPrefecture: '佐賀県' }, { ...general, bank: bank0587 }, []],
    ['§3 Bank configuration', 'a purpose not in the bank\'s list', { utilizationPurpose: ['PUBLIC_SPORTS'] }, { ...general, bank: bank0587 }, [{ field: 'utilizationPurpose', message: messages.badRequest }]],
    ['§5 Purposes', '\'other\' requires text', { utilizationPurpose: ['LIVING', 'OTHER'] }, general, [{ field: 'utilizationPurposeOther', message: messages.purposeOtherRequired }]],
    ['§5 Purposes', '\'other\' text at most 24', { utilizationPurpose: ['OTHER'], utilizationPurposeOther: 'あ'.repeat(25) }, general, [{ field: 'utilizationPurposeOther', message: messages.purposeOtherTooLong }]],
    ['§5 Purposes', 'at least one', { utilizationPurpose: [] }, general, [{ field: 'utilizationPurpose', message: messages.selectRequired }]],
    ['§5 Postal code', 'the address must be searched', { addressCode: null }, general, [{ field: 'addressCode', message: messages.searchAddress }]],
    [
      '§5 Postal code',
      '\'no matching address\' switches to temporary address entry, which requires prefecture, address and kana',
      { noMatchingAddress: true },
      general,
      [
        { field: 'tempAddressPrefecture', message: messages.selectRequired },
        { field: 'tempAddress', message: messages.required },
        { field: 'kanaTempAddress', message: messages.required },
      ],
    ],
  ])('%s %s', (section, sentence, change, context, expected) => {
    // The title names the sentence (spec.ts).
    expect(spec(section, sentence)).toContain(sentence);
    expect(personal({ ...valid, ...change }, context)).toEqual(expected);
  });
});

describe('the workplace form (schemas/workplace.schema.json)', () => {
  const offered = {
    occupationId: [
      { value: 1, label: '会社員', data: { workplaceRequired: true } },
      { value: 2, label: '学生', data: { workplaceRequired: false } },
      { value: 99, label: 'その他', data: { workplaceRequired: false } },
    ],
  };
  const workplace = (answers: Record<string, unknown>, flowId = 'general') =>
    judgeForm('workplace', answers, { ...general, saved: {}, offered }, flowId);

  it(spec('§5 Workplace name, Workplace phone', 'required if the occupation requires a workplace (\'入力が必須です。\')'), () => {
    expect(workplace({ occupationId: 1 })).toEqual([
      { field: 'workplaceName', message: messages.required },
      { field: 'workplacePhoneNumber', message: messages.required },
    ]);
    expect(workplace({ occupationId: 2 })).toEqual([]);
  });

  it(spec('§5 Occupation', 'If Other: required (\'入力が必須です。\'), 1 to 25 characters'), () => {
    expect(workplace({ occupationId: 99 })).toEqual([{ field: 'occupationOther', message: messages.required }]);
    expect(workplace({ occupationId: 99, occupationOther: 'あ'.repeat(26) })).toEqual([{ field: 'occupationOther', message: messages.occupationOtherTooLong }]);
  });

  it(spec('§2 Child screens', '/child/personal asks the child\'s occupation, and no workplace'), () => {
    expect(workplace({ occupationId: 1, workplaceName: '＜株＞' }, 'child')).toEqual([]);
  });
});

describe('the parent form (schemas/parent.schema.json)', () => {
  // The stored child is what the parent's surnames are compared with.
  const context: FormRuleContext = { ...child, saved: { lastName: '山田', kanaLastName: 'ﾔﾏﾀﾞ' } };
  const parent: Record<string, unknown> = {
    bankCode: '0177',
    lastName: '山田',
    firstName: '花子',
    kanaLastName: 'ﾔﾏﾀﾞ',
    kanaFirstName: 'ﾊﾅｺ',
    birthday: '1985-04-01',
    relationship: 'MOTHER',
    mobilePhoneNumber: '080-1234-5678',
    phoneNumber: null,
    proxyApplicationReason: 'MINOR',
  };
  it.each<[string, Record<string, unknown>, { field: string; message: string }[]]>([
    ['a valid parent', {}, []],
    ['Parent: 18 or over (18 today)', { birthday: '2007-06-15' }, []],
    ['Parent: 18 or over (\'18歳未満の方は親権者としてお申込みできません。\')', { birthday: '2007-06-16' }, [{ field: 'birthday', message: messages.parentUnder18 }]],
    [
      'the parent\'s last name and kana last name must equal the child\'s',
      { lastName: '田中', kanaLastName: 'ﾀﾅｶ' },
      [
        { field: 'lastName', message: messages.parentSurname },
        { field: 'kanaLastName', message: messages.parentKanaSurname },
      ],
    ],
  ])(`${spec('§5', '%s')}`, (_sentence, change, expected) => {
    expect(judgeForm('parent', { ...parent, ...change }, context, 'child')).toEqual(expected);
  });
});
