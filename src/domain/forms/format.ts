import type { FormRuleContext } from '../rules/registry';
import type { Condition } from './conditions';

/**
 * The form-definition language (docs/forms.md; its meta-schema, schemas/format/form.schema.json,
 * is what an editor checks a form file against): a JSON Schema for what is accepted, and our
 * annotation keywords, which ajv ignores (ajv-setup.ts declares them), for everything else.
 *
 * Root keywords:
 * - `x-format`: the version of this language the file is written in (FORM_FORMAT_VERSION);
 * - `x-step`: where the form is posted and what the page and the confirmation page say around it;
 * - `x-ui`: the rjsf uiSchema (widgets, layout, `ui:order`);
 * - `x-messages`: messages of this form alone, named by key from its errorMessage (messages.ts);
 * - `x-flows`: one overlay per flow (by the flow's id, `flows/<id>.json`) over the same
 *   keywords: what differs when that flow asks the form (flow-forms.ts). The one way a form
 *   varies by flow.
 * Property keywords:
 * - `x-options`: the bank data that fills a choice, checked by the server against the same data;
 * - `x-normalize`: the named rewrite of a text answer (rules/normalizers.ts);
 * - `x-when`, `x-required-when`, `x-locked-when`: a condition (conditions.ts) under which the
 *   field is asked at all, required (besides `required`), locked. A field not asked is hidden,
 *   and neither checked, required nor stored (field-states.ts).
 *
 * A schema without `x-step` belongs to a screen that posts it itself (the PIN, the
 * confirmation tick) or is a request body of its own (the e-mail address).
 */

/** The version of the form format this code reads; a file of another version is refused by the lint (docs/forms.md, "Migrating"). */
export const FORM_FORMAT_VERSION = 2;

export const FORMAT_KEYWORD = 'x-format';
export const FORM_STEP_KEYWORD = 'x-step';
export const UI_KEYWORD = 'x-ui';
export const LOCAL_MESSAGES_KEYWORD = 'x-messages';
export const FLOWS_KEYWORD = 'x-flows';
export const OPTIONS_KEYWORD = 'x-options';
export const NORMALIZE_KEYWORD = 'x-normalize';
export const WHEN_KEYWORD = 'x-when';
export const REQUIRED_WHEN_KEYWORD = 'x-required-when';
export const LOCKED_WHEN_KEYWORD = 'x-locked-when';

/** The property keywords that hold a condition. */
export const conditionKeywords = [WHEN_KEYWORD, REQUIRED_WHEN_KEYWORD, LOCKED_WHEN_KEYWORD] as const;
export type ConditionKeyword = (typeof conditionKeywords)[number];

export const annotationKeywords = [
  FORMAT_KEYWORD,
  FORM_STEP_KEYWORD,
  UI_KEYWORD,
  LOCAL_MESSAGES_KEYWORD,
  FLOWS_KEYWORD,
  OPTIONS_KEYWORD,
  NORMALIZE_KEYWORD,
  ...conditionKeywords,
] as const;

/** Where the meta-schema lives, as a form file in schemas/ names it in `$schema`. */
export const FORM_FORMAT_SCHEMA_REF = './format/form.schema.json';

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
 * What each derivation reads and adds: the field whose answer it follows (so a name it adds is
 * asked while that field is: the confirmation page's rows), and the names it adds beside the
 * form's fields (the stored application shows them, null when absent).
 */
export const derivationFacts: Readonly<Record<DerivationName, { follows: string; adds: readonly string[] }>> = {
  postalAddress: { follows: 'postalNumber', adds: ['address', 'kanaAddress'] },
  eraBirthday: { follows: 'birthday', adds: ['eraBirthday'] },
  workplaceMaster: { follows: 'workplaceId', adds: ['workplaceCode', 'workplaceName', 'workplacePhoneNumber', 'multipleAccountsPermitted'] },
  invitation: { follows: 'invitationCode', adds: [] },
};

/**
 * The records besides the applicant's own application a form may store its answers into
 * (x-step.storedAs): the child flow's parent, whose names (lastName, occupationId…) are the
 * child's too. GET /api/applications answers each as its own entity.
 */
export const storedEntityNames = ['applicationParent'] as const;
export type StoredEntityName = (typeof storedEntityNames)[number];

export const applicationTypeNames = ['GENERAL', 'CHILD'] as const;
export type ApplicationTypeName = (typeof applicationTypeNames)[number];

/** How a value reads on the confirmation page (SummaryRowDeclaration.format). */
export const summaryFormatNames = ['dateWithEra', 'postalCode'] as const;
export type SummaryFormatName = (typeof summaryFormatNames)[number];

export interface FormStepDeclaration {
  /** The API path (under /api) the answers are posted to, e.g. "/applications/branch". */
  post: string;
  /** Rules of src/domain/rules/registry.ts run after the schema, on the page and on the server. */
  rules: string[];
  /** Shown above the form. */
  intro?: string;
  /** Shown below the intro, smaller ({bankName} is the bank's name). */
  note?: string;
  /** The confirmation page's heading for this form (default: the schema's title). */
  summaryTitle?: string;
  /** What the server derives from its own data before the checks (derivationNames). */
  derive?: DerivationName[];
  /** The confirmation page's rows, when a field a line does not say it (default: one row per field). */
  summary?: SummaryRowDeclaration[];
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
 * stored application), each as the page offered it, joined by `join` or one line each. A row
 * whose fields of this form are none of them asked is left out.
 */
export interface SummaryRowDeclaration {
  term: string;
  fields: string[];
  /** Joins the values into one line (default: one line per value). */
  join?: string;
  /** How a value reads: a date with its era, a postal code with its hyphen. */
  format?: SummaryFormatName;
  /** Each value follows its field's title: 店番 001　口座番号 0000001. */
  withTitles?: boolean;
  /** A field whose text follows a value in brackets: その他（…）; with `value`, that choice only. */
  detail?: { field: string; value?: string };
  /** Shown when there is no value (default 未入力); `null` leaves the row out. */
  empty?: string | null;
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
  const?: unknown;
  oneOf?: Array<{ const?: unknown; title?: string }>;
  items?: FormProperty;
  maxLength?: number;
  'x-when'?: Condition;
  'x-required-when'?: Condition;
  'x-locked-when'?: Condition;
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

/** The form's heading on the confirmation page: x-step.summaryTitle, else its title. */
export function summaryTitleOf(schema: FormSchema): string {
  return formStepOf(schema)?.summaryTitle ?? schema.title ?? '';
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

/** A field's ui:options in x-ui, or none. */
export function uiOptionsOf(schema: FormSchema, field: string): Record<string, unknown> {
  const entry = uiSchemaOf(schema)[field];
  return isRecord(entry) && isRecord(entry['ui:options']) ? entry['ui:options'] : {};
}

/** A field's ui:widget in x-ui, if it names one. */
export function widgetOf(schema: FormSchema, field: string): string | undefined {
  const entry = uiSchemaOf(schema)[field];
  return isRecord(entry) && typeof entry['ui:widget'] === 'string' ? entry['ui:widget'] : undefined;
}

/** The fields filled from bank data, with their declaration. */
export function optionFieldsOf(schema: FormSchema): Array<{ field: string; options: OptionsDeclaration }> {
  return Object.entries(schema.properties ?? {}).flatMap(([field, property]) => {
    const options = property[OPTIONS_KEYWORD];
    return isRecord(options) && typeof options.source === 'string' ? [{ field, options: options as unknown as OptionsDeclaration }] : [];
  });
}
