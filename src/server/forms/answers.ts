import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/index.js';
import { qualified } from '../db/qualified.js';
import { applicationForms, applications } from '../db/schema.js';
import { toJstIso } from '../time.js';
import { derivationFacts, optionFieldsOf, storedEntityNames, storedEntityOf, type StoredEntityName } from '../../domain/forms/format.js';
import type { FormCatalogue, FormDefinition } from './catalogue.js';

/**
 * What an application has stored, as the browser and the named rules see it: the columns the
 * server keeps for itself (bank, type, numbers, dates),
 * and every document of the generic engine's forms merged in by field name, plus the
 * documents themselves by form. The forms stored into another record (x-step.storedAs: the
 * child flow's parent) make up that record instead.
 */

/**
 * The columns the browser receives, named one by one: a column a later migration adds (a
 * secret, a provider's reference) stays on the server until it is listed here. (The generic
 * engine's documents are sent whole: they hold only what their schema declares and what the
 * server derived for them.)
 */
const visible = {
  bankCode: applications.bankCode,
  applicationType: applications.applicationType,
  mailAddress: applications.mailAddress,
  applicationNumber: applications.applicationNumber,
  applicationCompletedAt: applications.applicationCompletedAt,
};

/** The names `application` gives to columns: a form's field or labelAs may not take one (the flow lint). */
export const COLUMN_ANSWER_NAMES: readonly string[] = Object.keys(visible);

export interface StoredAnswers {
  /** Every column of `visible` and every document's answers, by field name (lists comma-joined). */
  application: Record<string, unknown>;
  /** The generic engine's documents: form → answers as stored. */
  forms: Record<string, Record<string, unknown>>;
  /**
   * The records of the forms stored into another entity (x-step.storedAs), each as
   * `application` is built (every name its forms may store, null when not answered); null
   * while none of its forms is stored.
   */
  entities: Record<StoredEntityName, Record<string, unknown> | null>;
  /** How many times steps were stored (migration 0017): the page sends it back with each step. */
  revision: number;
  /** The row it was built from, to build it again with one more form stored (withStoredForm). */
  row: StoredRow;
}

/** An answer as the application entity shows it: a list of choices comma-joined (spec section 3, utilizationPurpose). */
function entityValue(value: unknown): unknown {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value.join(',') : value;
}

/** entityNamesOf's answers by form: a form's names never change, and every read of an application asks for them. */
const entityNamesByForm = new WeakMap<FormDefinition, readonly string[]>();

/** Every name a form's document may hold: its fields, the labels of its choices, what its derivations add. */
function entityNamesOf(form: FormDefinition): readonly string[] {
  let names = entityNamesByForm.get(form);
  if (!names) {
    const labels = optionFieldsOf(form.schema).flatMap(({ options }) => (options.labelAs ? [options.labelAs] : []));
    const derived = (form.step?.derive ?? []).flatMap((name) => derivationFacts[name].adds);
    names = [...Object.keys(form.schema.properties ?? {}), ...labels, ...derived];
    entityNamesByForm.set(form, names);
  }
  return names;
}

/**
 * A stored form's answers as the entity shows them: every name the form may store, null when
 * not answered or not asked (a temporary address leaves the registered one null). A form not
 * yet posted adds nothing.
 */
function entityFieldsOf(form: FormDefinition | undefined, answers: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const name of form ? entityNamesOf(form) : []) fields[name] = null;
  for (const [field, value] of Object.entries(answers)) fields[field] = entityValue(value);
  return fields;
}

/** Every name the forms stored into `entity` may store, null: a form of it not yet posted leaves its names null. */
function emptyEntity(catalogue: FormCatalogue, entity: StoredEntityName): Record<string, unknown> {
  const forms = [...catalogue.values()].filter((form) => form.step?.storedAs === entity);
  return Object.fromEntries(forms.flatMap(entityNamesOf).map((name) => [name, null]));
}

/**
 * The application's documents (application_forms) as one json object, form → answers, read in
 * the same statement as its columns: every step reads both (GET /api/applications on each
 * page), and one statement is one snapshot. json, not jsonb: it keeps the rows' order, in which
 * the documents are merged below, as the separate select it replaces did.
 */
const documentsOfRow = sql<Record<string, Record<string, unknown>> | null>`(select json_object_agg(${qualified(applicationForms.form)}, ${qualified(applicationForms.answers)}) from ${applicationForms} where ${qualified(applicationForms.applicationId)} = ${qualified(applications.id)})`;

/**
 * The fields a statement on `applications` returns for storedAnswersFrom: the columns the
 * browser receives and the documents. The session check returns them too on the routes that
 * read the answers (requireApplicationWithAnswers), in its one statement.
 */
export const storedAnswerFields = { ...visible, forms: documentsOfRow, revision: applications.revision };

export type StoredRow = { [K in keyof typeof visible]: (typeof visible)[K]['_']['data'] | null } & {
  forms: Record<string, Record<string, unknown>> | null;
  revision: number;
};

/**
 * What an application holds the moment verify has created it, built without reading it again
 * (ADR 0042): the columns verify wrote, nothing completed, no form stored, and its revision as
 * the creating statement returned it.
 */
export function createdAnswers(catalogue: FormCatalogue, columns: Pick<StoredRow, 'bankCode' | 'applicationType' | 'mailAddress'>, revision: number): StoredAnswers {
  return storedAnswersFrom(catalogue, { ...columns, applicationNumber: null, applicationCompletedAt: null, forms: null, revision });
}

export async function storedAnswersOf(db: Database, catalogue: FormCatalogue, applicationId: string): Promise<StoredAnswers | undefined> {
  const [stored] = await db.select(storedAnswerFields).from(applications).where(eq(applications.id, applicationId)).limit(1);
  return stored ? storedAnswersFrom(catalogue, stored) : undefined;
}

/** What an application has stored, from its row as storedAnswerFields returns it. */
export function storedAnswersFrom(catalogue: FormCatalogue, stored: StoredRow): StoredAnswers {
  const { forms: documentsByForm, revision, ...row } = stored;
  const forms = documentsByForm ?? {};
  const documents: Record<string, unknown> = {};
  const entities = Object.fromEntries(storedEntityNames.map((name) => [name, null])) as StoredAnswers['entities'];
  for (const [form, answers] of Object.entries(forms)) {
    const definition = catalogue.get(form);
    const entity = definition ? storedEntityOf(definition.schema) : 'application';
    // A form stored into another entity (the child's parent) must not overwrite the applicant's names.
    if (entity === 'application') Object.assign(documents, entityFieldsOf(definition, answers));
    else entities[entity] = { ...(entities[entity] ?? emptyEntity(catalogue, entity)), ...entityFieldsOf(definition, answers) };
  }
  return {
    application: {
      // First: a document never hides a column (the lint also refuses a form field named like one).
      ...documents,
      ...row,
      applicationCompletedAt: row.applicationCompletedAt ? toJstIso(row.applicationCompletedAt) : null,
    },
    forms,
    entities,
    revision,
    row: stored,
  };
}

/**
 * What the application holds once `document` is stored as `form` and the revision became
 * `revision`, built from what it held before (the same as reading it again, without the
 * statement). The document as its JSON is stored: an undefined answer is no answer.
 */
export function withStoredForm(catalogue: FormCatalogue, before: StoredAnswers, form: string, document: Record<string, unknown>, revision: number): StoredAnswers {
  const stored = JSON.parse(JSON.stringify(document)) as Record<string, unknown>;
  return storedAnswersFrom(catalogue, { ...before.row, forms: { ...before.forms, [form]: stored }, revision });
}
