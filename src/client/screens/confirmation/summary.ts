import type { PublicBankConfig } from '../../../domain/bank/types';
import { parseIsoDate, toJapaneseEra } from '../../../domain/rules';
import {
  fieldOrderOf,
  formStepOf,
  holds,
  isRecord,
  labelOfValue,
  optionFieldsOf,
  storedEntityOf,
  summaryTitleOf,
  uiSchemaOf,
  type ApplicationTypeName,
  type FormSchema,
  type StoredEntityName,
  type SummaryRowDeclaration,
} from '../../../domain/schemas/form-step';
import type { Choice } from '../../forms/widgets/choices';
import type { ApplicationParentRecord, ApplicationRecord } from '../../api/application';
import { optionSummaries } from '../../forms/options';

/** One line of the summary: a term and its value (several lines when the value has parts). */
export interface SummaryItem {
  term: string;
  lines: string[];
}

export interface SummarySection {
  title: string;
  items: SummaryItem[];
}

/** The forms a flow asks (its pages' meta.form, in the order of its pages): the summary lists only what they asked. */
export type AskedForms = ReadonlySet<string>;

/** The schemas of the asked forms that have one of their own sections (x-step), by form name. */
export type FormSchemas = ReadonlyMap<string, FormSchema>;

/** Each stored form's answers (GET /api/applications `forms`), by form name. */
export type StoredForms = Readonly<Record<string, Readonly<Record<string, unknown>> | null>>;

export const NOT_ENTERED = '未入力';

function present(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

const item = (term: string, ...values: Array<string | null | undefined>): SummaryItem => {
  const lines = values.filter(present);
  return { term, lines: lines.length > 0 ? lines : [NOT_ENTERED] };
};

/** '1990-04-01' → '1990年4月1日（平成2年）'. */
export function formatBirthday(birthday: string | null | undefined): string | null {
  const day = parseIsoDate(birthday);
  if (!day || !birthday) return null;
  return `${day.year}年${day.month}月${day.day}日（${toJapaneseEra(birthday).label}）`;
}

/** '8100001' → '810-0001'. */
export function formatPostalNumber(postalNumber: string | null | undefined): string | null {
  if (!postalNumber) return null;
  return /^\d{7}$/.test(postalNumber) ? `${postalNumber.slice(0, 3)}-${postalNumber.slice(3)}` : postalNumber;
}

/**
 * Everything entered in the steps before the confirmation, as the confirmation page lists it:
 * one section per form the flow asks (`asked`), in the order of its pages, so a flow without
 * the seal-less step shows no seal. The sections of generic form steps come from their
 * schemas (`schemas`) and stored answers (`forms`): the rows a schema declares
 * (x-step.summary, with the `choices` of its x-options fields), else one per field. In the
 * child flow the personal form's rows close with the child's occupation and invitation code (a
 * child has no workplace: both come from /child/personal), and the parent's section follows:
 * the forms stored into the parent's record (x-step.storedAs) read that record (`parent`, GET
 * /api/applications applicationParent) and show nothing while it is not stored.
 */
export function summaryOf(
  application: ApplicationRecord,
  bank: PublicBankConfig,
  parent: ApplicationParentRecord | null,
  asked: AskedForms,
  schemas: FormSchemas,
  forms?: StoredForms | null,
  choices?: ReadonlyMap<string, Record<string, Choice[]>>,
): SummarySection[] {
  const entities: Record<StoredEntityName, Readonly<Record<string, unknown>> | null> = { applicationParent: parent };
  const applicationType = application.applicationType ?? (parent ? 'CHILD' : 'GENERAL');
  return [...asked].flatMap((form) => {
    const schema = schemas.get(form);
    if (!schema) return [];
    const entity = storedEntityOf(schema);
    const stored = entity === 'application' ? null : entities[entity];
    if (entity !== 'application' && !stored) return [];
    const answers = stored ?? forms?.[form] ?? {};
    if (formStepOf(schema)?.summary) {
      const record = stored ?? { ...application, ...answers };
      return declaredSummaryOf(schema, { record, choices: choices?.get(form) ?? {}, applicationType, bank });
    }
    return formSummaryOf(schema, answers);
  });
}

/** What a form's declared rows read: the application and the form's own answers, the choices of its x-options fields. */
export interface SummarySource {
  record: Readonly<Record<string, unknown>>;
  choices: Readonly<Record<string, Choice[]>>;
  applicationType: ApplicationTypeName;
  bank: PublicBankConfig;
}

/** A value as the page offered it: a choice's label, a ui:enumNames label, a oneOf title, or itself. */
function labelOf(schema: FormSchema, field: string, value: unknown, choices: SummarySource['choices']): string | null {
  if (value === undefined || value === null || value === '') return null;
  const chosen = choices[field]?.find((choice) => String(choice.value) === String(value));
  if (chosen) return chosen.label;
  const property = schema.properties?.[field];
  const names = uiSchemaOf(schema)[field];
  const enumNames = isRecord(names) ? names['ui:enumNames'] : undefined;
  const index = property?.enum?.indexOf(value) ?? -1;
  if (Array.isArray(enumNames) && index >= 0 && typeof enumNames[index] === 'string') return enumNames[index];
  // A field of the application outside the form (mailAddress) or derived (address) reads as itself.
  // One value at a time: an item of a list reads by the list's items.
  const described = property?.type === 'array' ? property.items : property;
  return described ? labelOfValue(described, value) : String(value);
}

/** A field's values: a list as stored, or as the application entity shows it (comma-joined). */
function valuesOf(schema: FormSchema, field: string, raw: unknown): unknown[] {
  if (Array.isArray(raw)) return raw;
  if (typeof raw === 'string' && schema.properties?.[field]?.type === 'array') return raw.split(',').filter(Boolean);
  return [raw];
}

const formats: Record<NonNullable<SummaryRowDeclaration['format']>, (value: string) => string | null> = {
  dateWithEra: formatBirthday,
  postalCode: formatPostalNumber,
};

/** One declared row, or none (its condition does not hold, or it is empty and says so). */
function rowOf(schema: FormSchema, row: SummaryRowDeclaration, source: SummarySource): SummaryItem[] {
  const { record, choices, applicationType, bank } = source;
  if (row.for !== undefined && row.for !== applicationType) return [];
  if (row.when && !holds(row.when, record, { applicationType, bank, today: new Date(), saved: record })) return [];
  const values = row.fields.flatMap((field) => {
    return valuesOf(schema, field, record[field]).flatMap((value) => {
      const label = labelOf(schema, field, value, choices);
      if (!present(label)) return [];
      const formatted = row.format ? formats[row.format](label) : label;
      const title = schema.properties?.[field]?.title;
      const shown = formatted !== null && row.withTitles && title ? `${title} ${formatted}` : formatted;
      const detail = row.detail && (row.detail.value === undefined || row.detail.value === value) ? record[row.detail.field] : undefined;
      return shown === null ? [] : [typeof detail === 'string' && present(detail) ? `${shown}（${detail}）` : shown];
    });
  });
  const lines = row.join === undefined ? values : values.length > 0 ? [values.join(row.join)] : [];
  if (lines.length > 0) return [{ term: row.term, lines }];
  return row.empty === null ? [] : [{ term: row.term, lines: [row.empty ?? NOT_ENTERED] }];
}

/** A form's section from its x-step.summary rows; none when no row applies (the child's workplace form, shown with the personal one). */
export function declaredSummaryOf(schema: FormSchema, source: SummarySource): SummarySection[] {
  const step = formStepOf(schema);
  if (!step?.summary) return [];
  const title = summaryTitleOf(schema, source.applicationType);
  const items = step.summary.flatMap((row) => rowOf(schema, row, source));
  return items.length > 0 ? [{ title, items }] : [];
}

/**
 * The section of a generic form step, from its schema alone: titled by x-step.summaryTitle (or
 * the schema's title), one line per field in the page's order, termed by the field's title. A
 * choice reads as the page offered it (its oneOf title); a choice filled from bank data with
 * its stored label (x-options labelAs). A form without x-step has no section (none: its screen
 * posts it itself, as the confirmation tick and the PIN do).
 */
export function formSummaryOf(schema: FormSchema, answers: Readonly<Record<string, unknown>>): SummarySection[] {
  const step = formStepOf(schema);
  if (!step) return [];
  const options = new Map(optionFieldsOf(schema).map(({ field, options: declared }) => [field, declared]));
  const items = fieldOrderOf(schema).flatMap((field) => {
    const property = schema.properties?.[field];
    if (!property) return [];
    const shown = labelOfValue(property, answers[field]);
    const labelAs = options.get(field)?.labelAs;
    const label = labelAs === undefined ? undefined : answers[labelAs];
    if (shown === null || typeof label !== 'string' || label === '') return [item(property.title ?? field, shown)];
    const source = options.get(field)?.source;
    const format = source === undefined ? undefined : optionSummaries[source];
    return [item(property.title ?? field, format ? format(label, shown) : `${label}（${shown}）`)];
  });
  return [{ title: step.summaryTitle ?? schema.title ?? '', items }];
}

/** The forms of a flow's pages. */
export function askedFormsOf(pages: ReadonlyArray<{ forms: readonly string[] }>): AskedForms {
  return new Set(pages.flatMap((page) => page.forms));
}
