import type { PublicBankConfig } from '../../../domain/bank/types';
import { parseIsoDate, toJapaneseEra } from '../../../domain/rules';
import type { FormRuleContext, OfferedOption } from '../../../domain/rules/registry';
import { labelOfValue } from '../../../domain/forms/answers';
import { fieldStatesOf, stateOf, type FieldStates } from '../../../domain/forms/field-states';
import { formFor } from '../../../domain/forms/flow-forms';
import {
  derivationFacts,
  formStepOf,
  isRecord,
  optionFieldsOf,
  storedEntityOf,
  summaryTitleOf,
  uiSchemaOf,
  type ApplicationTypeName,
  type FormSchema,
  type StoredEntityName,
  type SummaryRowDeclaration,
} from '../../../domain/forms/format';
import { fieldOrderOf } from '../../../domain/forms/order';
import type { Choice } from '../../forms/widgets/choices';
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

/** The forms of each page of a flow, in the order of its pages: one section each. */
export type PageForms = ReadonlyArray<{ forms: readonly string[] }>;

/** Each stored form's answers (GET /api/applications `forms`), by form name. */
export type StoredForms = Readonly<Record<string, Readonly<Record<string, unknown>> | null>>;

/** What the summary reads besides the schemas: the application as stored, and whose flow it is. */
export interface SummaryInput {
  flowId: string;
  applicationType: ApplicationTypeName;
  bank: PublicBankConfig;
  application: Readonly<Record<string, unknown>>;
  /** The records of the forms stored into another entity (x-step.storedAs), null while not stored. */
  entities: Readonly<Record<StoredEntityName, Readonly<Record<string, unknown>> | null>>;
  forms: StoredForms;
  /** The choices of each form's x-options fields, as the pages offered them. */
  choices: ReadonlyMap<string, Readonly<Record<string, Choice[]>>>;
}

export const NOT_ENTERED = '未入力';

function present(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

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

const formats: Record<NonNullable<SummaryRowDeclaration['format']>, (value: string) => string | null> = {
  dateWithEra: formatBirthday,
  postalCode: formatPostalNumber,
};

/** One form as the summary reads it: as its flow asks it, its answers, and what its conditions made of each field. */
interface SummaryForm {
  form: FormSchema;
  /** The form's answers with the application's (or its entity's) around them. */
  record: Readonly<Record<string, unknown>>;
  choices: Readonly<Record<string, Choice[]>>;
  states: FieldStates;
}

/** The field of the form a name shown in a row follows: itself, the field whose label it stores (labelAs), the field a derivation follows. */
function ownerOf(form: FormSchema, name: string): string | undefined {
  if (Object.hasOwn(form.properties ?? {}, name)) return name;
  const labelled = optionFieldsOf(form).find(({ options }) => options.labelAs === name);
  if (labelled) return labelled.field;
  const derived = (formStepOf(form)?.derive ?? []).find((derivation) => derivationFacts[derivation].adds.includes(name));
  return derived === undefined ? undefined : derivationFacts[derived].follows;
}

/** A row is shown when one of its names belongs to a field that is asked, or when none belongs to the form (the mail address). */
function rowAsked({ form, states }: SummaryForm, fields: readonly string[]): boolean {
  const owners = fields.map((name) => ownerOf(form, name)).filter((owner): owner is string => owner !== undefined);
  return owners.length === 0 || owners.some((owner) => stateOf(states, owner).asked);
}

/** A value as the page offered it: a choice's label, a ui:enumNames label, a oneOf title, or itself. */
function labelOf({ form, choices }: SummaryForm, field: string, value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  const chosen = choices[field]?.find((choice) => String(choice.value) === String(value));
  if (chosen) return chosen.label;
  const property = form.properties?.[field];
  const names = uiSchemaOf(form)[field];
  const enumNames = isRecord(names) ? names['ui:enumNames'] : undefined;
  const index = property?.enum?.indexOf(value) ?? -1;
  if (Array.isArray(enumNames) && index >= 0 && typeof enumNames[index] === 'string') return enumNames[index];
  // A field of the application outside the form (mailAddress) or derived (address) reads as itself.
  // One value at a time: an item of a list reads by the list's items.
  const described = property?.type === 'array' ? property.items : property;
  return described ? labelOfValue(described, value) : String(value);
}

/** A field's values: a list as stored, or as the application entity shows it (comma-joined). */
function valuesOf(form: FormSchema, field: string, raw: unknown): unknown[] {
  if (Array.isArray(raw)) return raw;
  if (typeof raw === 'string' && form.properties?.[field]?.type === 'array') return raw.split(',').filter(Boolean);
  return [raw];
}

/** One declared row, or none (no field of it is asked, or it is empty and says so). */
function rowOf(summary: SummaryForm, row: SummaryRowDeclaration): SummaryItem[] {
  if (!rowAsked(summary, row.fields)) return [];
  const { form, record } = summary;
  const values = row.fields.flatMap((field) =>
    valuesOf(form, field, record[field]).flatMap((value) => {
      const label = labelOf(summary, field, value);
      if (!present(label)) return [];
      const formatted = row.format ? formats[row.format](label) : label;
      const title = form.properties?.[field]?.title;
      const shown = formatted !== null && row.withTitles && title ? `${title} ${formatted}` : formatted;
      const detail = row.detail && (row.detail.value === undefined || row.detail.value === value) ? record[row.detail.field] : undefined;
      return shown === null ? [] : [typeof detail === 'string' && present(detail) ? `${shown}（${detail}）` : shown];
    }),
  );
  const lines = row.join === undefined ? values : values.length > 0 ? [values.join(row.join)] : [];
  if (lines.length > 0) return [{ term: row.term, lines }];
  return row.empty === null ? [] : [{ term: row.term, lines: [row.empty ?? NOT_ENTERED] }];
}

/**
 * A form's rows without a declaration: one per field asked, in the page's order, termed by its
 * title. A choice reads as the page offered it (its oneOf title); a choice filled from bank
 * data with its stored label (x-options labelAs), formatted by its source (the branch's code).
 */
function defaultRowsOf(summary: SummaryForm): SummaryItem[] {
  const { form, record, states } = summary;
  const options = new Map(optionFieldsOf(form).map(({ field, options: declared }) => [field, declared]));
  return fieldOrderOf(form).flatMap((field) => {
    const property = form.properties?.[field];
    if (!property || !stateOf(states, field).asked) return [];
    const term = property.title ?? field;
    const shown = labelOf(summary, field, record[field]);
    const declared = options.get(field);
    const label = declared?.labelAs === undefined ? undefined : record[declared.labelAs];
    if (shown === null) return [{ term, lines: [NOT_ENTERED] }];
    if (typeof label !== 'string' || label === '' || !declared) return [{ term, lines: [shown] }];
    const format = optionSummaries[declared.source];
    const value = String(record[field]);
    return [{ term, lines: [format ? format(label, value) : `${label}（${value}）`] }];
  });
}

/** A stored form as the summary reads it, or undefined while its record is not stored. */
function summaryFormOf(schema: FormSchema, name: string, input: SummaryInput): SummaryForm | undefined {
  const form = formFor(schema, input.flowId);
  const entity = storedEntityOf(form);
  const stored = entity === 'application' ? { ...input.application, ...(input.forms[name] ?? {}) } : input.entities[entity];
  if (!stored) return undefined;
  const choices = input.choices.get(name) ?? {};
  const offered: Record<string, OfferedOption[]> = Object.fromEntries(Object.entries(choices).map(([field, list]) => [field, list.map(({ value, label }) => ({ value, label }))]));
  const context: FormRuleContext = { applicationType: input.applicationType, bank: input.bank, today: new Date(), saved: input.application, offered };
  const answers = entity === 'application' ? (input.forms[name] ?? {}) : stored;
  return { form, record: stored, choices, states: fieldStatesOf(form, answers, context) };
}

/**
 * Everything entered in the steps before the confirmation, as the confirmation page lists it:
 * one section per page of the flow that asks forms of the generic engine (x-step), in the
 * order of its pages, headed by its first form's summary title; each form's rows as its
 * schema declares them (x-step.summary) or one per field, as the flow asks the form (x-flows),
 * and only the rows of fields the answers asked (a field never asked is never listed). A form
 * stored into another record (the child flow's parent) reads that record and shows nothing
 * while it is not stored.
 */
export function summaryOf(pages: PageForms, schemas: ReadonlyMap<string, FormSchema>, input: SummaryInput): SummarySection[] {
  return pages.flatMap((page) => {
    const parts = page.forms.flatMap((name) => {
      const schema = schemas.get(name);
      const summary = schema && formStepOf(schema) ? summaryFormOf(schema, name, input) : undefined;
      return summary ? [summary] : [];
    });
    const [first] = parts;
    if (!first) return [];
    const items = parts.flatMap((part) => {
      const rows = formStepOf(part.form)?.summary;
      return rows ? rows.flatMap((row) => rowOf(part, row)) : defaultRowsOf(part);
    });
    return items.length > 0 ? [{ title: summaryTitleOf(first.form), items }] : [];
  });
}
