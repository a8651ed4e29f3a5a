import { escapePointerSegment } from '../json-pointer';
import type { FieldError } from '../rules/field-error';
import { formRuleNames } from '../rules/registry';
import { trimSpaces } from '../rules/spaces';

/**
 * What a schema says about its form step beyond JSON Schema, in four annotation keywords that
 * ajv ignores (ajv-setup.ts declares them) and the engine reads on both sides:
 *
 * - `x-step` (root): where the form is posted and what the page says around it;
 * - `x-ui` (root): the rjsf uiSchema (widgets, layout, field order `ui:order`);
 * - `x-options` (property): the bank data that fills a choice (`{ "source": "branches" }`),
 *   checked by the server against the same data and, with `labelAs`, stored with its label;
 * - `x-messages` (root): messages of this form alone, named by key from its errorMessage
 *   (see messages.ts), so a product owner can word a new field without a code change.
 *
 * A schema without `x-step` belongs to a screen that posts it itself (the PIN, the
 * confirmation tick, or a step not yet moved onto the generic engine).
 */

export const FORM_STEP_KEYWORD = 'x-step';
export const UI_KEYWORD = 'x-ui';
export const OPTIONS_KEYWORD = 'x-options';
export const LOCAL_MESSAGES_KEYWORD = 'x-messages';
export const annotationKeywords = [FORM_STEP_KEYWORD, UI_KEYWORD, OPTIONS_KEYWORD, LOCAL_MESSAGES_KEYWORD] as const;

/** The bank data a choice can be filled from (each side implements every name once). */
export const optionSourceNames = ['branches'] as const;
export type OptionSourceName = (typeof optionSourceNames)[number];

export type ApplicationTypeName = 'GENERAL' | 'CHILD';

export interface FormStepDeclaration {
  /** The API path (under /api) the answers are posted to, e.g. "/applications/branch". */
  post: string;
  /** Rules of src/domain/rules/registry.ts run after the schema, on the page and on the server. */
  rules: string[];
  /** Shown above the form. */
  intro?: string;
  /** Shown below the intro for one application type only ({bankName} is the bank's name). */
  notes?: Partial<Record<ApplicationTypeName, string>>;
  /** The confirmation page's heading for this form (default: the schema's title). */
  summaryTitle?: string;
}

export interface OptionsDeclaration {
  source: OptionSourceName;
  /** The answers also keep the chosen option's label under this name (e.g. branchName). */
  labelAs?: string;
  /** What the page says instead of the form when the source offers nothing. */
  empty?: { message: string; link?: { label: string; bankLink: string } };
}

/** A JSON Schema object as the engine reads it (plain JSON; every keyword optional). */
export interface FormSchema {
  title?: string;
  required?: string[];
  properties?: Record<string, FormProperty>;
  [keyword: string]: unknown;
}

export interface FormProperty {
  type?: string | string[];
  title?: string;
  enum?: unknown[];
  oneOf?: Array<{ const?: unknown; title?: string }>;
  items?: FormProperty;
  [keyword: string]: unknown;
}

export interface FormProblem {
  /** JSON pointer in the schema file. */
  pointer: string;
  message: string;
}

/** A JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The schema's x-step, or undefined for a form its screen posts itself. */
export function formStepOf(schema: FormSchema): FormStepDeclaration | undefined {
  const raw = schema[FORM_STEP_KEYWORD];
  if (!isRecord(raw) || typeof raw.post !== 'string') return undefined;
  return { ...(raw as unknown as FormStepDeclaration), rules: Array.isArray(raw.rules) ? (raw.rules as string[]) : [] };
}

/** The schema's uiSchema (x-ui), or an empty one. */
export function uiSchemaOf(schema: FormSchema): Record<string, unknown> {
  const raw = schema[UI_KEYWORD];
  return isRecord(raw) ? raw : {};
}

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

/** The fields filled from bank data, with their declaration. */
export function optionFieldsOf(schema: FormSchema): Array<{ field: string; options: OptionsDeclaration }> {
  return Object.entries(schema.properties ?? {}).flatMap(([field, property]) => {
    const options = property[OPTIONS_KEYWORD];
    return isRecord(options) && typeof options.source === 'string' ? [{ field, options: options as unknown as OptionsDeclaration }] : [];
  });
}


/**
 * What both sides do to the answers before the schema sees them: only the form's own fields
 * are kept, text trimmed of spaces (half and full width) at its ends, and a text left empty
 * (or a null) removed, so that "required" and "at most N" judge what the applicant meant.
 * Returns a copy.
 */
export function normalizeAnswers(schema: FormSchema, answers: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const field of Object.keys(schema.properties ?? {})) {
    // Own properties only: a field named like an Object method must not read the method.
    const value = Object.hasOwn(answers, field) ? answers[field] : undefined;
    if (typeof value === 'string') {
      const trimmed = trimSpaces(value);
      if (trimmed !== '') result[field] = trimmed;
    } else if (value !== undefined && value !== null) {
      result[field] = value;
    }
  }
  return result;
}

/** Errors sorted by the form's field order (stable within a field); the first is what the page focuses. */
export function inFieldOrder(schema: FormSchema, errors: readonly FieldError[]): FieldError[] {
  const order = fieldOrderOf(schema);
  const rank = (field: string) => {
    const index = order.indexOf(field.split('.')[0] ?? field);
    return index === -1 ? order.length : index;
  };
  return [...errors].sort((a, b) => rank(a.field) - rank(b.field));
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

/**
 * What is wrong with a form step's declaration, for the flow lint (file and line are added by
 * the caller): its x-step, its rule names, its option sources and the order it names.
 */
export function formStepProblems(schema: FormSchema): FormProblem[] {
  const problems: FormProblem[] = [];
  const raw = schema[FORM_STEP_KEYWORD];
  if (raw === undefined) return problems;
  if (!isRecord(raw)) return [{ pointer: `/${FORM_STEP_KEYWORD}`, message: '"x-step" must be an object with "post"' }];
  if (typeof raw.post !== 'string' || !/^\/[a-z0-9/-]+$/.test(raw.post)) {
    problems.push({ pointer: `/${FORM_STEP_KEYWORD}/post`, message: '"post" must be the API path the form is posted to, e.g. "/applications/branch"' });
  }
  const rules = raw.rules ?? [];
  if (!Array.isArray(rules)) {
    problems.push({ pointer: `/${FORM_STEP_KEYWORD}/rules`, message: '"rules" must be a list of rule names' });
  } else {
    rules.forEach((rule, index) => {
      if (typeof rule !== 'string' || !(formRuleNames as readonly string[]).includes(rule)) {
        problems.push({
          pointer: `/${FORM_STEP_KEYWORD}/rules/${index}`,
          message: `unknown rule "${String(rule)}" (known rules, src/domain/rules/registry.ts: ${formRuleNames.join(', ')})`,
        });
      }
    });
  }
  for (const [field, property] of Object.entries(schema.properties ?? {})) {
    const options = property[OPTIONS_KEYWORD];
    if (options === undefined) continue;
    const pointer = `/properties/${escapePointerSegment(field)}/${OPTIONS_KEYWORD}`;
    if (!isRecord(options) || !(optionSourceNames as readonly string[]).includes(String(options.source))) {
      problems.push({ pointer: `${pointer}/source`, message: `unknown option source "${isRecord(options) ? String(options.source) : ''}" (known sources: ${optionSourceNames.join(', ')})` });
    }
  }
  const order = uiSchemaOf(schema)['ui:order'];
  if (Array.isArray(order)) {
    order.forEach((name, index) => {
      if (name !== '*' && (typeof name !== 'string' || schema.properties?.[name] === undefined)) {
        problems.push({ pointer: `/${UI_KEYWORD}/ui:order/${index}`, message: `"ui:order" names "${String(name)}", which is not a field of this form` });
      }
    });
    // rjsf refuses to draw a form whose order leaves a field out without "*", or has two "*".
    const stars = order.filter((name) => name === '*').length;
    const left = Object.keys(schema.properties ?? {}).filter((field) => !order.includes(field));
    if (stars > 1) problems.push({ pointer: `/${UI_KEYWORD}/ui:order`, message: '"ui:order" may hold "*" (every other field) once only' });
    if (stars === 0 && left.length > 0) {
      problems.push({ pointer: `/${UI_KEYWORD}/ui:order`, message: `"ui:order" leaves out ${left.map((field) => `"${field}"`).join(', ')}: name every field, or add "*" for the rest` });
    }
  }
  return problems;
}
