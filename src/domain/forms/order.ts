import type { FieldError } from '../rules/field-error';
import { isRecord, uiSchemaOf, type FormSchema } from './format';

/** The fields in the order the page shows them: the uiSchema's ui:order, else the schema's. */
export function fieldOrderOf(schema: FormSchema): string[] {
  const properties = Object.keys(schema.properties ?? {});
  const order = uiSchemaOf(schema)['ui:order'];
  if (!Array.isArray(order)) return properties;
  const listed = order.filter((name): name is string => typeof name === 'string' && properties.includes(name));
  const rest = properties.filter((name) => !listed.includes(name));
  // rjsf's '*' stands for every field the order does not name, where it stands.
  const star = order.indexOf('*');
  return star === -1 ? [...listed, ...rest] : [...listed.slice(0, star), ...rest, ...listed.slice(star)];
}

/**
 * Fields whose errors show at (and focus) another field, from x-ui's `"ui:options": { "errorsAt": … }`:
 * e.g. the searched address's parts, which the postal code search sets.
 */
export function errorTargetsOf(schema: FormSchema): Record<string, string> {
  const targets: Record<string, string> = {};
  for (const [field, entry] of Object.entries(uiSchemaOf(schema))) {
    const options = isRecord(entry) && isRecord(entry['ui:options']) ? entry['ui:options'] : undefined;
    if (typeof options?.errorsAt === 'string') targets[field] = options.errorsAt;
  }
  return targets;
}

/** Errors sorted by the form's field order, each where the page shows it (stable within a field); the first is what the page focuses. */
export function inFieldOrder(schema: FormSchema, errors: readonly FieldError[]): FieldError[] {
  const order = fieldOrderOf(schema);
  const targets = errorTargetsOf(schema);
  const rank = (field: string) => {
    const own = field.split('.')[0] ?? field;
    const index = order.indexOf(targets[own] ?? own);
    return index === -1 ? order.length : index;
  };
  return [...errors].sort((a, b) => rank(a.field) - rank(b.field));
}
