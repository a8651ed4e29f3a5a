import type { OfferedOption } from '../rules/registry';
import { listedOptionsOf } from './answers';
import { isRecord, OPTIONS_KEYWORD, uiSchemaOf, type FormSchema } from './format';

/** A chosen value's label, or a list's labels in its order. */
export type AnswerLabel = string | string[];

/**
 * The label of each chosen value of a form's answers, as the page offered it: a choice of bank
 * data by its offered label, a listed option by its title (oneOf) or ui:enumNames, a yes/no by
 * its card. Stored beside the answers and handed to the bank with them, so the bank reads what
 * the applicant chose, not only its code. A text or a number has none.
 */
export function labelsOf(form: FormSchema, answers: Readonly<Record<string, unknown>>, offered: Readonly<Record<string, readonly OfferedOption[]>> = {}): Record<string, AnswerLabel> {
  const ui = uiSchemaOf(form);
  const labels: Record<string, AnswerLabel> = {};
  for (const [field, property] of Object.entries(form.properties ?? {})) {
    const value = answers[field];
    if (value === undefined || value === null) continue;
    const entry = ui[field];
    const listed = isRecord(property[OPTIONS_KEYWORD])
      ? (offered[field] ?? []).map((option) => ({ value: option.value, label: option.label }))
      : listedOptionsOf(Array.isArray(value) && property.items ? property.items : property, isRecord(entry) ? entry['ui:enumNames'] : undefined);
    if (listed.length === 0) continue;
    const labelOf = (item: unknown) => listed.find((option) => String(option.value) === String(item))?.label;
    if (Array.isArray(value)) {
      const named = value.map(labelOf).filter((label): label is string => label !== undefined);
      if (named.length > 0) labels[field] = named;
    } else {
      const label = labelOf(value);
      if (label !== undefined) labels[field] = label;
    }
  }
  return labels;
}
