import { describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import { runFormRules, type FormRuleContext } from '../../src/domain/rules/registry.js';
import { normalizeAnswers, unaskedFields, withoutUnasked, type FormSchema } from '../../src/domain/schemas/form-step.js';

/** The engine's field keywords (x-normalize, x-when) and the rule runner, as both sides apply them. */

const bank = { code: '0177', distanceTransactionReasonRequired: true, homePrefecture: '福岡県', UTILIZATION_PURPOSE_LIST: [{ value: 'LIVING' }, { value: 'OTHER' }] };
const context = (applicationType: FormRuleContext['applicationType'] = 'GENERAL'): FormRuleContext => ({
  applicationType,
  bank,
  today: new Date('2026-11-24T00:00:00Z'),
  saved: {},
});

const schema: FormSchema = {
  properties: {
    kana: { type: 'string', 'x-normalize': 'kanaName' },
    postal: { type: 'string', 'x-normalize': 'postalCode' },
    phone: { type: ['string', 'null'], 'x-normalize': 'phone' },
    noMatchingAddress: { type: 'boolean' },
    addressPrefecture: { type: 'string', 'x-when': { field: 'noMatchingAddress', isNot: true } },
    tempAddressPrefecture: { type: 'string', 'x-when': { field: 'noMatchingAddress', is: true } },
    utilizationPurpose: { type: 'array' },
    utilizationPurposeOther: { type: 'string', 'x-when': { field: 'utilizationPurpose', includes: 'OTHER' } },
    distanceTransactionReason: { type: 'string', 'x-when': { condition: 'distanceReasonAsked' } },
  },
};

describe('x-normalize', () => {
  it('trims, then rewrites by the named normaliser; what it leaves empty is not given', () => {
    expect(normalizeAnswers(schema, { kana: ' やまだ ', postal: '８１０－０００１'.replace('－', '-'), phone: '--' })).toEqual({ kana: 'ﾔﾏﾀﾞ', postal: '8100001' });
  });
});

describe('x-when', () => {
  it('asks the registered address until no address matched, then the temporary one', () => {
    const alwaysUnasked = ['distanceTransactionReason', 'utilizationPurposeOther'];
    expect([...unaskedFields(schema, {}, context())].sort()).toEqual([...alwaysUnasked, 'tempAddressPrefecture'].sort());
    expect([...unaskedFields(schema, { noMatchingAddress: true, tempAddressPrefecture: '福岡県' }, context())].sort()).toEqual([...alwaysUnasked, 'addressPrefecture'].sort());
  });

  it('asks その他 only with OTHER chosen, and the distance reason (a named condition) only outside the home prefecture', () => {
    const answers = { utilizationPurpose: ['OTHER'], utilizationPurposeOther: '仕送り', addressPrefecture: '東京都', distanceTransactionReason: '転勤' };
    expect(withoutUnasked(schema, answers, context())).toEqual(answers);
    const home = { ...answers, utilizationPurpose: ['LIVING'], addressPrefecture: '福岡県' };
    expect(withoutUnasked(schema, home, context())).toEqual({ utilizationPurpose: ['LIVING'], addressPrefecture: '福岡県' });
  });
});

describe('runFormRules', () => {
  it('runs the rules in the order named, keeping the first failure of each field', () => {
    const answers = { birthday: '2020-01-01', utilizationPurpose: ['OTHER'], addressPrefecture: '東京都' };
    expect(runFormRules(['applicantAge', 'distanceReason', 'purposes'], answers, context())).toEqual([
      { field: 'birthday', message: messages.generalUnder18 },
      { field: 'distanceTransactionReason', message: messages.required },
      { field: 'utilizationPurposeOther', message: messages.purposeOtherRequired },
    ]);
    expect(runFormRules(['applicantAge'], answers, context('CHILD'))).toEqual([]);
  });
});
