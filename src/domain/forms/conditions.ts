import { formConditions, type FormConditionName, type FormRuleContext } from '../rules/registry';

/**
 * The one condition language of the forms (format 2, docs/forms.md): whether a field is asked
 * (`x-when`), required while asked (`x-required-when`) or locked (`x-locked-when`). Written
 * once in the schema, read by every reader through `holds`: the page, the server, the
 * confirmation page, the lint and the generated journeys. What the answers alone cannot say
 * is a named condition of src/domain/rules/registry.ts; the flow is chosen by the form's
 * overlay for it (`x-flows`), not by a condition.
 */
export type Condition =
  | boolean
  | FieldCondition
  | { all: Condition[] }
  | { any: Condition[] }
  | { not: Condition }
  | { condition: FormConditionName }
  | { bank: string[] };

/** What a condition may say of one answer: this form's, an earlier form's of the page, or one stored by an earlier page. */
export type FieldCondition =
  | { field: string; equals: unknown }
  | { field: string; notEquals: unknown }
  | { field: string; oneOf: unknown[] }
  | { field: string; includes: unknown }
  | { field: string; answered: boolean };

/** The tests a field condition may make, each named once (the lint, the docs and the journeys list them from here). */
export const fieldTests = ['equals', 'notEquals', 'oneOf', 'includes', 'answered'] as const;
export type FieldTest = (typeof fieldTests)[number];

/** What a condition is judged against. */
export interface ConditionScope {
  /** The answer a field condition reads (undefined when not answered, or when its field is not asked). */
  answerOf(field: string): unknown;
  bankCode: string;
  /** The answers and context the named conditions read. */
  answers: Readonly<Record<string, unknown>>;
  context: FormRuleContext;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The test a field condition makes, or undefined for another kind of condition. */
export function fieldTestOf(condition: unknown): FieldTest | undefined {
  return isRecord(condition) && typeof condition.field === 'string' ? fieldTests.find((test) => Object.hasOwn(condition, test)) : undefined;
}

/** Whether a value counts as an answer: an empty text, an empty list or null is none. */
export function isAnswered(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);
}

/** Two answers are the same: by value for plain ones, item by item for lists. */
function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => same(item, b[index]));
  return Object.is(a, b);
}

function fieldHolds(condition: FieldCondition, scope: ConditionScope): boolean {
  const raw = scope.answerOf(condition.field);
  // An unanswered yes/no reads as no: its checkbox starts unticked.
  const expected = 'equals' in condition ? condition.equals : 'notEquals' in condition ? condition.notEquals : undefined;
  const value = raw === undefined && typeof expected === 'boolean' ? false : raw;
  if ('equals' in condition) return same(value, condition.equals);
  if ('notEquals' in condition) return !same(value, condition.notEquals);
  if ('oneOf' in condition) return Array.isArray(condition.oneOf) && condition.oneOf.some((option) => same(value, option));
  if ('includes' in condition) return Array.isArray(value) && value.some((item) => same(item, condition.includes));
  if ('answered' in condition) return isAnswered(value) === condition.answered;
  return false;
}

/** Whether the condition holds. A condition the lint would refuse (an unknown name, a shape it does not know) does not. */
export function holds(condition: Condition, scope: ConditionScope): boolean {
  if (typeof condition === 'boolean') return condition;
  if (!isRecord(condition)) return false;
  if (fieldTestOf(condition) !== undefined) return fieldHolds(condition as FieldCondition, scope);
  if ('all' in condition) return Array.isArray(condition.all) && condition.all.every((part) => holds(part, scope));
  if ('any' in condition) return Array.isArray(condition.any) && condition.any.some((part) => holds(part, scope));
  if ('not' in condition) return !holds(condition.not, scope);
  if ('condition' in condition) {
    const name = condition.condition;
    return Object.hasOwn(formConditions, name) && formConditions[name](scope.answers, scope.context);
  }
  if ('bank' in condition) return Array.isArray(condition.bank) && condition.bank.includes(scope.bankCode);
  return false;
}

/** Each part of a condition, the condition itself first, with its JSON pointer below `pointer` (as written: not checked). */
export function partsOf(condition: unknown, pointer = ''): Array<{ part: unknown; pointer: string }> {
  const parts: Array<{ part: unknown; pointer: string }> = [{ part: condition, pointer }];
  if (!isRecord(condition)) return parts;
  for (const key of ['all', 'any'] as const) {
    const list = condition[key];
    if (Array.isArray(list)) list.forEach((item, index) => parts.push(...partsOf(item, `${pointer}/${key}/${index}`)));
  }
  if ('not' in condition) parts.push(...partsOf(condition.not, `${pointer}/not`));
  return parts;
}

/** The fields a condition reads, each once. */
export function fieldsReadBy(condition: unknown): string[] {
  const fields = partsOf(condition).flatMap(({ part }) => (isRecord(part) && typeof part.field === 'string' ? [part.field] : []));
  return [...new Set(fields)];
}

/** The named conditions a condition uses, each once. */
export function namedConditionsOf(condition: unknown): string[] {
  const names = partsOf(condition).flatMap(({ part }) => (isRecord(part) && typeof part.condition === 'string' ? [part.condition] : []));
  return [...new Set(names)];
}
