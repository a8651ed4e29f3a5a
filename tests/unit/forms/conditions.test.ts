import { describe, expect, it } from 'vitest';
import { fieldsReadBy, holds, namedConditionsOf, type Condition, type ConditionScope } from '../../../src/domain/forms/conditions';
import type { FormRuleContext } from '../../../src/domain/rules/registry';

/** The condition language (src/domain/forms/conditions.ts): each shape, judged as every reader judges it. */

const context: FormRuleContext = {
  applicationType: 'GENERAL',
  bank: { code: '0177', distanceTransactionReasonRequired: true, homePrefecture: '福岡県', UTILIZATION_PURPOSE_LIST: [] },
  today: new Date('2026-11-24T00:00:00Z'),
  saved: {},
};

function scopeOf(answers: Record<string, unknown>, bankCode = '0177'): ConditionScope {
  return { answerOf: (field) => answers[field], bankCode, answers, context };
}

describe('holds', () => {
  it.each<[string, Condition, Record<string, unknown>, boolean]>([
    ['true always', true, {}, true],
    ['false never', false, { a: 1 }, false],
    ['equals', { field: 'kind', equals: 'A' }, { kind: 'A' }, true],
    ['equals, another value', { field: 'kind', equals: 'A' }, { kind: 'B' }, false],
    ['equals false: an unanswered yes/no is no', { field: 'flag', equals: false }, {}, true],
    ['notEquals holds while unanswered', { field: 'kind', notEquals: 'C' }, {}, true],
    ['notEquals true: an unanswered yes/no is no', { field: 'flag', notEquals: true }, {}, true],
    ['oneOf', { field: 'kind', oneOf: ['A', 'B'] }, { kind: 'B' }, true],
    ['oneOf, not among them', { field: 'kind', oneOf: ['A', 'B'] }, { kind: 'C' }, false],
    ['oneOf does not hold before a choice', { field: 'kind', oneOf: ['A', 'B'] }, {}, false],
    ['includes', { field: 'list', includes: 'OTHER' }, { list: ['LIVING', 'OTHER'] }, true],
    ['includes, a plain answer', { field: 'list', includes: 'OTHER' }, { list: 'OTHER' }, false],
    ['answered', { field: 'text', answered: true }, { text: 'x' }, true],
    ['answered: an empty text is none', { field: 'text', answered: true }, { text: '' }, false],
    ['answered: false', { field: 'list', answered: false }, { list: [] }, true],
    ['all', { all: [{ field: 'a', equals: 1 }, { field: 'b', equals: 2 }] }, { a: 1, b: 2 }, true],
    ['all, one fails', { all: [{ field: 'a', equals: 1 }, { field: 'b', equals: 2 }] }, { a: 1, b: 3 }, false],
    ['any', { any: [{ field: 'a', equals: 1 }, { field: 'b', equals: 2 }] }, { a: 0, b: 2 }, true],
    ['not', { not: { field: 'a', equals: 1 } }, { a: 1 }, false],
    ['bank', { bank: ['0177', '0181'] }, {}, true],
    ['a shape the lint refuses never holds', { field: 'a' } as unknown as Condition, { a: 1 }, false],
  ])('%s', (_name, condition, answers, expected) => {
    expect(holds(condition, scopeOf(answers))).toBe(expected);
  });

  it('reads the bank of the application', () => {
    expect(holds({ bank: ['0177'] }, scopeOf({}, '0587'))).toBe(false);
  });

  it('asks a named condition of the registry, with the answers and the context', () => {
    const inTokyo = scopeOf({ addressPrefecture: '東京都' });
    expect(holds({ condition: 'distanceReasonAsked' }, inTokyo)).toBe(true);
    expect(holds({ condition: 'distanceReasonAsked' }, scopeOf({ addressPrefecture: '福岡県' }))).toBe(false);
    expect(holds({ condition: 'noSuchCondition' } as unknown as Condition, inTokyo)).toBe(false);
  });
});

describe('what a condition reads', () => {
  const condition: Condition = { all: [{ field: 'a', equals: 1 }, { not: { any: [{ field: 'b', oneOf: [1] }, { condition: 'workplaceRequired' }, { field: 'a', answered: true }] } }] };
  it('names each field once', () => expect(fieldsReadBy(condition)).toEqual(['a', 'b']));
  it('names each named condition once', () => expect(namedConditionsOf(condition)).toEqual(['workplaceRequired']));
});
