import type { FieldError } from '../rules/field-error';
import { isNormalizerName, normalizers } from '../rules/normalizers';
import { formConditions, runFormRules, type FormConditionName, type FormRuleContext } from '../rules/registry';
import { trimSpaces } from '../rules/spaces';

/**
 * What a schema says about its form step beyond JSON Schema, in four annotation keywords that
 * ajv ignores (ajv-setup.ts declares them) and the engine reads on both sides:
 *
 * - `x-step` (root): where the form is posted and what the page says around it, which forms
 *   must be stored before it (`after`), and the record it is stored into when it is not the
 *   applicant's (`storedAs`, e.g. the child flow's parent);
 * - `x-ui` (root): the rjsf uiSchema (widgets, layout, field order `ui:order`); texts may hold
 *   the bank's words ({bankName}, {homePrefecture});
 * - `x-ui-for` (root): uiSchema overrides for one application type (`{ "CHILD": { … } }`);
 * - `x-options` (property): the bank data that fills a choice (`{ "source": "branches" }`),
 *   checked by the server against the same data and, with `labelAs`, stored with its label;
 * - `x-messages` (root): messages of this form alone, named by key from its errorMessage
 *   (see messages.ts), so a product owner can word a new field without a code change;
 * - `x-normalize` (property): the named rewrite of a text answer (rules/normalizers.ts);
 * - `x-when` (property): when the field is asked at all: another field's answer
 *   (`{ "field": "noMatchingAddress", "is": true }`, `"isNot"`, `"includes"` for a list) or
 *   a named condition (`{ "condition": "distanceReasonAsked" }`, rules/registry.ts), or one
 *   application type (`{ "for": "GENERAL" }`, for a form two flows ask). A field not asked is
 *   hidden by the page, and its answer is neither checked nor stored.
 *
 * The lint's checks of these keywords are in form-step-problems.ts.
 *
 * A schema without `x-step` belongs to a screen that posts it itself (the PIN, the
 * confirmation tick, or a step not yet moved onto the generic engine).
 */

export const FORM_STEP_KEYWORD = 'x-step';
export const UI_KEYWORD = 'x-ui';
export const OPTIONS_KEYWORD = 'x-options';
export const LOCAL_MESSAGES_KEYWORD = 'x-messages';
export const NORMALIZE_KEYWORD = 'x-normalize';
export const WHEN_KEYWORD = 'x-when';
export const UI_FOR_TYPE_KEYWORD = 'x-ui-for';
export const annotationKeywords = [FORM_STEP_KEYWORD, UI_KEYWORD, UI_FOR_TYPE_KEYWORD, OPTIONS_KEYWORD, LOCAL_MESSAGES_KEYWORD, NORMALIZE_KEYWORD, WHEN_KEYWORD] as const;

/** The data a choice can be filled from (each side implements every name once). */
export const optionSourceNames = ['branches', 'purposes', 'prefectures', 'occupations', 'adultOccupations'] as const;
export type OptionSourceName = (typeof optionSourceNames)[number];

/** Whom a source offers its choices to (the occupations depend on the applicant and the child's birthday). */
export type OptionAsker = Pick<FormRuleContext, 'applicationType' | 'saved' | 'today'>;

/**
 * What the server adds to a form's answers from its own data before it checks them
 * (x-step.derive; src/server/forms/derivations.ts implements each name): the searched
 * address from the postal data for the candidate chosen, the birthday in the Japanese era,
 * the applied workplace's name, phone and code from the bank's master data, an invitation
 * code valid today.
 */
export const derivationNames = ['postalAddress', 'eraBirthday', 'workplaceMaster', 'invitation'] as const;
export type DerivationName = (typeof derivationNames)[number];

/**
 * The records besides the applicant's own application a form may store its answers into
 * (x-step.storedAs): the child flow's parent, whose names (lastName, occupationId…) are the
 * child's too. GET /api/applications answers each as its own entity.
 */
export const storedEntityNames = ['applicationParent'] as const;
export type StoredEntityName = (typeof storedEntityNames)[number];

export const applicationTypeNames = ['GENERAL', 'CHILD'] as const;
export type ApplicationTypeName = (typeof applicationTypeNames)[number];

/** When a field is asked (x-when): another field's answer, a named condition, or one application type only. */
export type AskedWhen =
  | { field: string; is?: unknown; isNot?: unknown; includes?: unknown }
  | { condition: FormConditionName }
  | { for: ApplicationTypeName };

export interface FormStepDeclaration {
  /** The API path (under /api) the answers are posted to, e.g. "/applications/branch". */
  post: string;
  /** Rules of src/domain/rules/registry.ts run after the schema, on the page and on the server. */
  rules: string[];
  /** Shown above the form. */
  intro?: string;
  /** The intro for one application type (over intro). */
  introFor?: Partial<Record<ApplicationTypeName, string>>;
  /** Shown below the intro for one application type only ({bankName} is the bank's name). */
  notes?: Partial<Record<ApplicationTypeName, string>>;
  /** The confirmation page's heading for this form (default: the schema's title). */
  summaryTitle?: string;
  /** What the server derives from its own data before the checks (derivationNames). */
  derive?: DerivationName[];
  /** The confirmation page's rows, when a field a line does not say it (default: one row per field). */
  summary?: SummaryRowDeclaration[];
  /** The confirmation page's heading for one application type (over summaryTitle). */
  summaryTitleFor?: Partial<Record<ApplicationTypeName, string>>;
  /**
   * The record the answers belong to when it is not the applicant's application
   * (storedEntityNames): they are not merged into `application` but make up that entity, and
   * the flow check compares the form's field names with that entity's forms only.
   */
  storedAs?: StoredEntityName;
  /**
   * Forms that must be stored before this one is accepted (409 otherwise, naming the first
   * missing form by its confirmation title: messages.stepFirst).
   */
  after?: string[];
  /**
   * A reminder shown at the bottom of the page until closed, when the page opens with the
   * fields of `unlessAnswered` all asked and none answered (nor typed): `message` is a key of
   * the messages catalogue.
   */
  reminder?: { message: string; unlessAnswered: string[] };
  /** What is typed and not yet sent is shown again when the applicant comes back (「戻る」, then 「次へ」). */
  keepDraft?: boolean;
}

/**
 * One row of a form's section on the confirmation page: the values of `fields` (read from the
 * stored application), each as the page offered it, joined by `join` or one line each.
 */
export interface SummaryRowDeclaration {
  term: string;
  fields: string[];
  /** Joins the values into one line (default: one line per value). */
  join?: string;
  /** How a value reads: a date with its era, a postal code with its hyphen. */
  format?: 'dateWithEra' | 'postalCode';
  /** Each value follows its field's title: 店番 001　口座番号 0000001. */
  withTitles?: boolean;
  /** A field whose text follows a value in brackets: その他（…）; with `value`, that choice only. */
  detail?: { field: string; value?: string };
  /** Shown when there is no value (default 未入力); `null` leaves the row out. */
  empty?: string | null;
  /** Only when this holds (as x-when), or for one application type. */
  when?: AskedWhen;
  for?: ApplicationTypeName;
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

/** The form's heading on the confirmation page for an application type: summaryTitleFor, summaryTitle, else its title. */
export function summaryTitleOf(schema: FormSchema, applicationType: ApplicationTypeName): string {
  const step = formStepOf(schema);
  return step?.summaryTitleFor?.[applicationType] ?? step?.summaryTitle ?? schema.title ?? '';
}

/** The record a form's answers belong to: 'application' (the applicant's), or its x-step.storedAs. */
export function storedEntityOf(schema: FormSchema): StoredEntityName | 'application' {
  return formStepOf(schema)?.storedAs ?? 'application';
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

/** The field's x-when, or undefined for a field always asked. */
export function askedWhenOf(property: FormProperty): AskedWhen | undefined {
  const raw = property[WHEN_KEYWORD];
  return isRecord(raw) ? (raw as AskedWhen) : undefined;
}

/** Whether a field with this x-when is asked, given the answers. */
export function holds(when: AskedWhen, answers: Readonly<Record<string, unknown>>, context: FormRuleContext): boolean {
  if ('for' in when) return context.applicationType === when.for;
  if ('condition' in when) return Object.hasOwn(formConditions, when.condition) && formConditions[when.condition](answers, context);
  const value = Object.hasOwn(answers, when.field) ? answers[when.field] : undefined;
  // An unanswered yes/no reads as no: the page's checkbox starts unticked.
  const current = value === undefined && typeof (when.is ?? when.isNot) === 'boolean' ? false : value;
  if ('is' in when) return current === when.is;
  if ('isNot' in when) return current !== when.isNot;
  if ('includes' in when) return Array.isArray(current) && current.includes(when.includes);
  return true;
}

/** The fields the answers do not ask (their x-when does not hold). */
export function unaskedFields(schema: FormSchema, answers: Readonly<Record<string, unknown>>, context: FormRuleContext): Set<string> {
  const unasked = new Set<string>();
  for (const [field, property] of Object.entries(schema.properties ?? {})) {
    const when = askedWhenOf(property);
    if (when && !holds(when, answers, context)) unasked.add(field);
  }
  return unasked;
}

/**
 * The answers without the fields asked of another application type only: those never come
 * from this applicant's page, so nothing is derived from them (a copy).
 */
export function withoutOtherTypes(schema: FormSchema, answers: Readonly<Record<string, unknown>>, applicationType: ApplicationTypeName): Record<string, unknown> {
  const properties = schema.properties ?? {};
  return Object.fromEntries(
    Object.entries(answers).filter(([field]) => {
      const when = Object.hasOwn(properties, field) ? askedWhenOf(properties[field] as FormProperty) : undefined;
      return !(when && 'for' in when) || when.for === applicationType;
    }),
  );
}

/** The answers without those of fields not asked (a copy). */
export function withoutUnasked(schema: FormSchema, answers: Readonly<Record<string, unknown>>, context: FormRuleContext): Record<string, unknown> {
  const unasked = unaskedFields(schema, answers, context);
  return Object.fromEntries(Object.entries(answers).filter(([field]) => !unasked.has(field)));
}

/**
 * The failures of the form's named rules on the fields it asks: a rule judges the answers as a
 * whole, and a field not asked (x-when) is neither checked nor stored, so nothing is said of it.
 */
export function askedRuleErrors(schema: FormSchema, rules: readonly string[], answers: Readonly<Record<string, unknown>>, context: FormRuleContext): FieldError[] {
  if (rules.length === 0) return [];
  const unasked = unaskedFields(schema, answers, context);
  return runFormRules(rules, answers, context).filter((error) => !unasked.has(error.field.split('.')[0] ?? error.field));
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
