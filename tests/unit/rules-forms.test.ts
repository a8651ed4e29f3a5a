import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import { workplaceRuleErrors, type RuleBody } from '../../src/domain/rules/index.js';
import { runFormRules, type FormRuleContext } from '../../src/domain/rules/registry.js';
import { formStepOf, type FormSchema } from '../../src/domain/schemas/form-step.js';

type PersonalRuleContext = Omit<FormRuleContext, 'saved'>;

/** The personal form's rules as its schema names them (x-step.rules), run as both sides run them. */
const personalRules = formStepOf(JSON.parse(readFileSync('schemas/personal.schema.json', 'utf8')) as FormSchema)?.rules ?? [];
const personalRuleErrors = (body: RuleBody, context: PersonalRuleContext) =>
  runFormRules(personalRules, body as Record<string, unknown>, { ...context, saved: {} });

const bank0177: PersonalRuleContext['bank'] = {
  code: '0177',
  distanceTransactionReasonRequired: true,
  homePrefecture: '福岡県',
  UTILIZATION_PURPOSE_LIST: [{ value: 'LIVING' }, { value: 'PUBLIC_SPORTS' }, { value: 'OTHER' }],
};
const bank0587: PersonalRuleContext['bank'] = {
  code: '0587',
  distanceTransactionReasonRequired: false,
  homePrefecture: '熊本県',
  UTILIZATION_PURPOSE_LIST: [{ value: 'LIVING' }, { value: 'OTHER' }],
};
const general: PersonalRuleContext = { applicationType: 'GENERAL', bank: bank0177, today: '2025-06-15' };
const child: PersonalRuleContext = { ...general, applicationType: 'CHILD' };

const valid: RuleBody = {
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
  addressPrefecture: '福岡県',
  utilizationPurpose: ['LIVING'],
  utilizationPurposeOther: null,
  distanceTransactionReason: null,
};

describe('the personal form’s rules (x-step.rules)', () => {
  it.each<[string, RuleBody, PersonalRuleContext, { field: string; message: string }[]]>([
    ['a valid general body', {}, general, []],
    ['name 24 with the space', { lastName: '山'.repeat(12), firstName: '太'.repeat(11) }, general, []],
    [
      'name 25 with the space',
      { lastName: '山'.repeat(12), firstName: '太'.repeat(12) },
      general,
      [{ field: 'lastName', message: messages.nameTooLong }],
    ],
    [
      'unusable characters on each field',
      { lastName: '𠮷田', firstName: '花①' },
      general,
      [
        { field: 'lastName', message: messages.unusableCharacters('𠮷') },
        { field: 'firstName', message: messages.unusableCharacters('①') },
      ],
    ],
    [
      'kana 49 with the space',
      { kanaLastName: 'ｱ'.repeat(24), kanaFirstName: 'ｱ'.repeat(24) },
      general,
      [{ field: 'kanaLastName', message: messages.kanaNameTooLong }],
    ],
    ['general aged 18 today', { birthday: '2007-06-15' }, general, []],
    [
      'general aged 17',
      { birthday: '2007-06-16' },
      general,
      [{ field: 'birthday', message: messages.generalUnder18 }],
    ],
    ['child born today', { birthday: '2025-06-15' }, child, []],
    ['child aged 18', { birthday: '2007-06-15' }, child, [{ field: 'birthday', message: messages.childAge }]],
    ['missing birthday left to the schema', { birthday: undefined }, general, []],
    [
      'phones',
      { mobilePhoneNumber: '060-1234-5678', phoneNumber: '092-12-3456' },
      general,
      [
        { field: 'mobilePhoneNumber', message: messages.mobilePhone },
        { field: 'phoneNumber', message: messages.homePhone },
      ],
    ],
    ['home phone of three empty inputs', { phoneNumber: '--' }, general, []],
    [
      'lives outside Fukuoka without a reason',
      { addressPrefecture: '佐賀県' },
      general,
      [{ field: 'distanceTransactionReason', message: messages.required }],
    ],
    [
      'temporary address outside Fukuoka',
      { noMatchingAddress: true, addressPrefecture: null, tempAddressPrefecture: '山口県' },
      general,
      [{ field: 'distanceTransactionReason', message: messages.required }],
    ],
    ['outside Fukuoka with a reason', { addressPrefecture: '佐賀県', distanceTransactionReason: '通勤先のため' }, general, []],
    ['another bank asks for no reason', { addressPrefecture: '佐賀県' }, { ...general, bank: bank0587 }, []],
    [
      'a purpose not in the bank list',
      { utilizationPurpose: ['PUBLIC_SPORTS'] },
      { ...general, bank: bank0587 },
      [{ field: 'utilizationPurpose', message: messages.badRequest }],
    ],
    [
      'other without text',
      { utilizationPurpose: ['LIVING', 'OTHER'] },
      general,
      [{ field: 'utilizationPurposeOther', message: messages.purposeOtherRequired }],
    ],
    [
      'no purpose',
      { utilizationPurpose: [] },
      general,
      [{ field: 'utilizationPurpose', message: messages.selectRequired }],
    ],
  ])('%s', (_case, change, ctx, expected) => {
    expect(personalRuleErrors({ ...valid, ...change }, ctx)).toEqual(expected);
  });

  it('accepts a Date as today', () => {
    expect(personalRuleErrors(valid, { ...general, today: new Date() })).toEqual([]);
  });
});

describe('workplaceRuleErrors', () => {
  const employee = { name: '会社員', workplaceRequired: true };
  const other = { name: 'その他', workplaceRequired: false };
  const student = { name: '学生', workplaceRequired: false };
  it.each<[string, RuleBody, { name: string; workplaceRequired: boolean } | undefined, { field: string; message: string }[]]>([
    ['employee with workplace', { workplaceName: '㈱ふくおか', workplacePhoneNumber: '092-123-4567' }, employee, []],
    [
      'employee without workplace',
      { workplaceName: '', workplacePhoneNumber: null },
      employee,
      [
        { field: 'workplaceName', message: messages.required },
        { field: 'workplacePhoneNumber', message: messages.required },
      ],
    ],
    ['student without workplace', { workplaceName: null, workplacePhoneNumber: '--' }, student, []],
    [
      'student with a partial phone',
      { workplacePhoneNumber: '092--' },
      student,
      [{ field: 'workplacePhoneNumber', message: messages.workplacePhone }],
    ],
    ['other without text', {}, other, [{ field: 'occupationOther', message: messages.required }]],
    [
      'forbidden symbol',
      { workplaceName: '＜ふくおか＞' },
      student,
      [{ field: 'workplaceName', message: '＜＞は使用できません。' }],
    ],
    ['existing account given', { existedAccountBranchCode: '012', existedAccountNumber: '0003456' }, student, []],
    [
      'existing account without number',
      { existedAccountBranchCode: '012', existedAccountNumber: null },
      student,
      [{ field: 'existedAccountNumber', message: messages.existingAccount }],
    ],
    [
      'existing account without branch',
      { existedAccountBranchCode: '', existedAccountNumber: '1234567' },
      student,
      [{ field: 'existedAccountBranchCode', message: messages.existingAccount }],
    ],
    ['no occupation yet', {}, undefined, []],
  ])('%s', (_case, body, occupation, expected) => {
    expect(workplaceRuleErrors(body, { occupation })).toEqual(expected);
  });
});

describe("the parent form's rules (schemas/parent.schema.json x-step.rules)", () => {
  const parentRules = formStepOf(JSON.parse(readFileSync('schemas/parent.schema.json', 'utf8')) as FormSchema)?.rules ?? [];
  // The stored child is what the parent's surnames are compared with.
  const context: FormRuleContext = { ...child, saved: { lastName: '山田', kanaLastName: 'ﾔﾏﾀﾞ' } };
  const parent: RuleBody = {
    bankCode: '0177',
    lastName: '山田',
    firstName: '花子',
    kanaLastName: 'ﾔﾏﾀﾞ',
    kanaFirstName: 'ﾊﾅｺ',
    birthday: '1985-04-01',
    mobilePhoneNumber: '080-1234-5678',
    phoneNumber: null,
  };
  it.each<[string, RuleBody, { field: string; message: string }[]]>([
    ['a valid parent', {}, []],
    ['parent aged 18 today', { birthday: '2007-06-15' }, []],
    ['parent aged 17', { birthday: '2007-06-16' }, [{ field: 'birthday', message: messages.parentUnder18 }]],
    [
      'another surname',
      { lastName: '田中', kanaLastName: 'ﾀﾅｶ' },
      [
        { field: 'lastName', message: messages.parentSurname },
        { field: 'kanaLastName', message: messages.parentKanaSurname },
      ],
    ],
  ])('%s', (_case, change, expected) => {
    expect(runFormRules(parentRules, { ...parent, ...change }, context)).toEqual(expected);
  });
});
