import { isNormalizerName, normalizers } from '../rules/normalizers';
import { trimSpaces } from '../rules/spaces';
import { NORMALIZE_KEYWORD, type FormProperty, type FormSchema } from './format';

/**
 * What both sides do to the answers before the schema sees them: only the form's own fields
 * are kept, text trimmed of spaces (half and full width) at its ends and rewritten by the
 * field's x-normalize, a text or a list left empty (or a null) removed, so that "required"
 * and "at most N" judge what the applicant meant. Returns a copy.
 */
export function normalizeAnswers(schema: FormSchema, answers: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [field, property] of Object.entries(schema.properties ?? {})) {
    // Own properties only: a field named like an Object method must not read the method.
    const value = Object.hasOwn(answers, field) ? answers[field] : undefined;
    if (typeof value === 'string') {
      const name = property[NORMALIZE_KEYWORD];
      const trimmed = trimSpaces(value);
      const normalized = isNormalizerName(name) && trimmed !== '' ? trimSpaces(normalizers[name](trimmed)) : trimmed;
      if (normalized !== '') result[field] = normalized;
    } else if (Array.isArray(value)) {
      // A list keeps the items given (a form fills a list's minimum with empty slots); none is no answer.
      const given = value.filter((item) => item !== undefined && item !== null);
      if (given.length > 0) result[field] = given;
    } else if (value !== undefined && value !== null) {
      result[field] = value;
    }
  }
  return result;
}

/** The options a field lists in its schema (oneOf with const, or enum), with their labels (oneOf titles, x-ui's ui:enumNames). */
export function listedOptionsOf(property: FormProperty, enumNames?: unknown): Array<{ value: unknown; label: string }> {
  if (Array.isArray(property.oneOf) && property.oneOf.some((option) => 'const' in option)) {
    return property.oneOf.filter((option) => 'const' in option).map((option) => ({ value: option.const, label: option.title ?? String(option.const) }));
  }
  if (Array.isArray(property.enum)) {
    const names = Array.isArray(enumNames) ? enumNames : [];
    return property.enum.map((value, index) => ({ value, label: typeof names[index] === 'string' ? (names[index] as string) : String(value) }));
  }
  if (property.type === 'boolean' || (Array.isArray(property.type) && property.type.includes('boolean'))) {
    return 'const' in property ? [{ value: property.const, label: property.title ?? String(property.const) }] : [{ value: true, label: 'はい' }, { value: false, label: 'いいえ' }];
  }
  return [];
}

/** The label of one answer as the page offered it (an option's title, a yes/no card), or the value itself. */
export function labelOfValue(property: FormProperty, value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  const listed = property.oneOf?.find((option) => option.const === value);
  if (listed?.title !== undefined) return listed.title;
  if (Array.isArray(value)) {
    const labels = value.map((item) => (property.items ? labelOfValue(property.items, item) : String(item))).filter((label): label is string => label !== null);
    return labels.length > 0 ? labels.join('、') : null;
  }
  if (typeof value === 'boolean') return value ? 'はい' : 'いいえ';
  return String(value);
}
