import { describe, expect, it } from 'vitest';
import { messages } from '../../../src/domain/messages';
import { fieldStatesOf, stepErrors, withoutUnasked } from '../../../src/domain/forms/field-states';
import { normalizeAnswers } from '../../../src/domain/forms/answers';
import type { FormSchema } from '../../../src/domain/forms/format';
import type { FormRuleContext } from '../../../src/domain/rules/registry';

/**
 * What the conditions make of each field (src/domain/forms/field-states.ts), on a form of this
 * test's own: the engine's behaviour, whatever the shipped forms say.
 */

const context: FormRuleContext = {
  applicationType: 'GENERAL',
  bank: { code: '0177', distanceTransactionReasonRequired: true, homePrefecture: '福岡県', UTILIZATION_PURPOSE_LIST: [] },
  today: new Date('2026-11-24T00:00:00Z'),
  saved: { earlierKind: 'X' },
};

const form: FormSchema = {
  required: ['kind', 'detail', 'declaration'],
  properties: {
    kind: { type: 'string', oneOf: [{ const: 'A' }, { const: 'B' }, { const: 'C' }] },
    detail: { type: 'string', maxLength: 30, 'x-when': { field: 'kind', oneOf: ['A', 'B'] } },
    more: { type: 'string', 'x-when': { field: 'detail', answered: true } },
    note: { type: ['string', 'null'], 'x-required-when': { field: 'kind', equals: 'C' }, 'x-locked-when': { field: 'earlierKind', equals: 'X' } },
    fromEarlier: { type: 'string', 'x-when': { field: 'earlierKind', equals: 'Y' } },
    declaration: { type: 'boolean', const: true },
  },
  errorMessage: { required: { detail: 'お取引の詳細を入力してください。' } },
};

const states = (answers: Record<string, unknown>) => Object.fromEntries(fieldStatesOf(form, answers, context));

describe('fieldStatesOf', () => {
  it('asks the detail only for the two options, and nothing before a choice', () => {
    expect(states({}).detail).toEqual({ asked: false, required: false, locked: false });
    expect(states({ kind: 'A' }).detail).toEqual({ asked: true, required: true, locked: false });
    expect(states({ kind: 'C', detail: 'left over' }).detail?.asked).toBe(false);
  });

  it('a condition that reads a field not asked sees no answer', () => {
    // The detail typed for A stays in the data when C is chosen; "more" must not follow it.
    expect(states({ kind: 'A', detail: 'x' }).more?.asked).toBe(true);
    expect(states({ kind: 'C', detail: 'x' }).more?.asked).toBe(false);
  });

  it('requires by x-required-when, and locks by x-locked-when, reading an earlier page', () => {
    expect(states({ kind: 'C' }).note).toEqual({ asked: true, required: true, locked: true });
    expect(states({ kind: 'A' }).note).toEqual({ asked: true, required: false, locked: true });
    expect(states({}).fromEarlier?.asked).toBe(false);
  });
});

describe('stepErrors: a required field that is not asked is never required', () => {
  const judge = (raw: Record<string, unknown>, schemaErrors: Array<{ field: string; message: string }>) => {
    const normalized = normalizeAnswers(form, raw);
    const found = fieldStatesOf(form, normalized, context);
    return stepErrors(form, [], withoutUnasked(normalized, found), schemaErrors, context, found);
  };

  it('drops the schema\'s required error of the detail when the third option hides it', () => {
    const schemaSays = [{ field: 'detail', message: 'お取引の詳細を入力してください。' }];
    expect(judge({ kind: 'C', declaration: true, note: 'x' }, schemaSays)).toEqual([]);
    expect(judge({ kind: 'A', declaration: true }, schemaSays)).toEqual(schemaSays);
  });

  it('says the form\'s required message of a field required by its condition, else the catalogue\'s', () => {
    expect(judge({ kind: 'C', declaration: true }, [])).toEqual([{ field: 'note', message: messages.required }]);
  });

  it('strips the answers of fields not asked, so the server neither checks nor stores them', () => {
    const normalized = normalizeAnswers(form, { kind: 'C', detail: 'left over', declaration: true });
    expect(withoutUnasked(normalized, fieldStatesOf(form, normalized, context))).toEqual({ kind: 'C', declaration: true });
  });
});
