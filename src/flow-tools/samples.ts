/**
 * Sample answers of a form, from its schema alone: what the generated journeys type into a form
 * that has no driver of its own, and what their coverage reports from before the browser runs.
 * Every field the answers ask is answered validly (the field's `examples`, else its first
 * option, else a short text within its limits); a field a condition reads is answered so that
 * the conditions that read it hold (`asks`) or do not (`skips`), so that across the visits of
 * a form each condition is taken both ways and each conditional field is seen asked and skipped.
 */
import { fieldsReadBy } from '../domain/forms/conditions';
import { listedOptionsOf } from '../domain/forms/answers';
import { fieldStatesOf, type FieldStates } from '../domain/forms/field-states';
import { conditionKeywords, isRecord, OPTIONS_KEYWORD, uiSchemaOf, type FormProperty, type FormSchema } from '../domain/forms/format';
import { fieldOrderOf } from '../domain/forms/order';
import type { FormRuleContext } from '../domain/rules/registry';

/** Which way a visit of a form takes the conditions the answers decide. */
export type Variant = 'asks' | 'skips';

/** The variant of the n-th visit of a form (0-based): the first asks, the next skips, and so on. */
export const variantOfVisit = (visit: number): Variant => (visit % 2 === 0 ? 'asks' : 'skips');

/** A short text no pattern-free field refuses, within its limits. */
const SAMPLE_TEXT = 'テスト';

/** The fields whose conditions read `field`. */
function readersOf(form: FormSchema, field: string): string[] {
  return Object.entries(form.properties ?? {}).flatMap(([name, property]) =>
    conditionKeywords.some((keyword) => fieldsReadBy(property[keyword]).includes(field)) ? [name] : [],
  );
}

/** The values a field may be given, in the order a sample prefers them. */
function candidatesOf(form: FormSchema, field: string, property: FormProperty, context: FormRuleContext): unknown[] {
  const examples = Array.isArray(property.examples) ? property.examples : [];
  if (isRecord(property[OPTIONS_KEYWORD])) {
    const offered = (context.offered?.[field] ?? []).map((option) => option.value);
    return property.type === 'array' ? offered.map((value) => [value]) : offered;
  }
  const entry = uiSchemaOf(form)[field];
  const listed = listedOptionsOf(property.type === 'array' && property.items ? property.items : property, isRecord(entry) ? entry['ui:enumNames'] : undefined).map((option) => option.value);
  if (property.type === 'array') return [...examples, ...listed.map((value) => [value])];
  if (listed.length > 0) return [...examples, ...listed];
  const limit = typeof property.maxLength === 'number' ? property.maxLength : SAMPLE_TEXT.length;
  return [...examples, SAMPLE_TEXT.slice(0, Math.max(1, limit))];
}

/** How many of the fields reading `field` the answers ask. */
function askedReaders(form: FormSchema, readers: readonly string[], answers: Record<string, unknown>, context: FormRuleContext): number {
  const states = fieldStatesOf(form, answers, context);
  return readers.filter((name) => states.get(name)?.asked === true).length;
}

/** The answers of a sample applicant of this variant (only the fields asked), and what they make of each field. */
export function sampleAnswers(form: FormSchema, variant: Variant, context: FormRuleContext): { answers: Record<string, unknown>; states: FieldStates } {
  const answers: Record<string, unknown> = {};
  for (const field of fieldOrderOf(form)) {
    const property = form.properties?.[field];
    if (!property || fieldStatesOf(form, answers, context).get(field)?.asked !== true) continue;
    // A yes/no that can only be yes (a declaration) is ticked.
    if (property.type === 'boolean' && property.const === true) {
      answers[field] = true;
      continue;
    }
    const candidates = candidatesOf(form, field, property, context);
    const readers = readersOf(form, field);
    if (readers.length === 0 || candidates.length < 2) {
      if (candidates[0] !== undefined) answers[field] = candidates[0];
      continue;
    }
    // The value that asks the most (or the fewest) of the fields whose conditions read it.
    const scored = candidates.map((value) => ({ value, asked: askedReaders(form, readers, { ...answers, [field]: value }, context) }));
    const best = scored.reduce((chosen, next) => ((variant === 'asks' ? next.asked > chosen.asked : next.asked < chosen.asked) ? next : chosen));
    answers[field] = best.value;
  }
  return { answers, states: fieldStatesOf(form, answers, context) };
}

/** One condition of a form, named for the coverage report: the field it decides and its keyword. */
export interface FormCondition {
  field: string;
  keyword: (typeof conditionKeywords)[number];
}

/**
 * The conditions a form writes (as its flow asks it): each field's x-when, x-required-when,
 * x-locked-when, but those of a field the flow never asks (x-when: false), which decide nothing.
 */
export function conditionsOfForm(form: FormSchema): FormCondition[] {
  return Object.entries(form.properties ?? {}).flatMap(([field, property]) =>
    property['x-when'] === false
      ? []
      : conditionKeywords.flatMap((keyword) => (property[keyword] !== undefined && typeof property[keyword] !== 'boolean' ? [{ field, keyword }] : [])),
  );
}

/** Whether a condition held for the answers, read from the states they give. */
export function conditionHeld({ field, keyword }: FormCondition, states: FieldStates, form: FormSchema): boolean {
  const state = states.get(field);
  if (!state) return false;
  if (keyword === 'x-when') return state.asked;
  if (keyword === 'x-locked-when') return state.locked;
  // Required while asked: "required" itself may say so; the condition held when it is the reason.
  return state.required && !(form.required ?? []).includes(field);
}
