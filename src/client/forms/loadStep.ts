import type { PublicBankConfig } from '../../domain/bank/types';
import type { FormRuleContext } from '../../domain/rules/registry';
import { normalizeAnswers } from '../../domain/forms/answers';
import { fieldStatesOf, unaskedOf } from '../../domain/forms/field-states';
import { formFor } from '../../domain/forms/flow-forms';
import {
  formStepOf,
  isRecord,
  optionFieldsOf,
  uiSchemaOf,
  type ApplicationTypeName,
  type FormSchema,
  type FormStepDeclaration,
  type OptionAsker,
  type OptionsDeclaration,
} from '../../domain/forms/format';
import type { ApplicationsAnswer } from '../api/application';
import { drafts } from '../platform/drafts';
import type { FormData } from './context';
import { optionSources, type Offer } from './options';
import { pageStateKey } from './pageState';
import { loadSchema } from './schemas';
import { presetsOnAsking } from './stepUi';
import type { Choice } from './widgets/choices';
import { widgetBehaviours } from './widgets';

/**
 * A form step as its page opens, from its schema alone: the schema, the stored answers (or the
 * draft of what was typed and not sent), what each x-options source offers, the bank's values
 * for fields not answered yet, and the state of the widgets that keep one (a code from the
 * landing URL applied once).
 */

export interface LoadedStep {
  /** The form as the page's flow asks it (its overlay of x-flows laid over it). */
  schema: FormSchema;
  step: FormStepDeclaration;
  /** Each x-options field's source, loaded: what it offers to an asker. */
  offers: Record<string, Offer>;
  /** The choices of each field filled from data, as the page opens. */
  choices: Record<string, Choice[]>;
  /** A field whose source offers nothing and says what the page shows instead. */
  empty: OptionsDeclaration['empty'] | undefined;
  initialData: FormData;
  /** x-step.reminder is shown: nothing it names was answered as the page opened. */
  remind: boolean;
  /** GET /api/applications as read on arrival (the stored application, for rules across steps). */
  answer: ApplicationsAnswer;
}

/** Where a page keeps what was typed in one of its forms and not yet sent (x-step.keepDraft). */
export const draftKeyOf = (path: string, form: string) => `${path}#${form}`;

/** A choice no longer offered is not preselected (a list keeps the items still offered). */
export function withoutUnoffered(data: FormData, choices: Readonly<Record<string, Choice[]>>): FormData {
  const result = { ...data };
  for (const [field, offered] of Object.entries(choices)) {
    const value = result[field];
    if (value === undefined) continue;
    const known = (item: unknown) => offered.some((choice) => String(choice.value) === String(item));
    if (Array.isArray(value)) result[field] = value.filter(known);
    else if (!known(value)) delete result[field];
  }
  return result;
}

/**
 * The answers shown again: the form's stored document (the schema's fields normalised, and what
 * the server stored beside them, such as the applied workplace's code).
 */
function storedDataOf(schema: FormSchema, stored: Record<string, unknown>): FormData {
  const properties = schema.properties ?? {};
  const beside = Object.fromEntries(Object.entries(stored).filter(([key, value]) => !Object.hasOwn(properties, key) && value !== null));
  return { ...beside, ...normalizeAnswers(schema, stored) };
}

/** What each widget that keeps a state sets as the page opens (in the form's order, one after the other). */
async function openedWidgets(schema: FormSchema, data: FormData, opening: { applicationType: ApplicationTypeName; stored: boolean }): Promise<FormData> {
  let opened = data;
  for (const [field, entry] of Object.entries(uiSchemaOf(schema))) {
    if (!isRecord(entry) || typeof entry['ui:widget'] !== 'string') continue;
    const open = widgetBehaviours[entry['ui:widget']]?.open;
    if (!open) continue;
    const options = isRecord(entry['ui:options']) ? entry['ui:options'] : {};
    const patch = await open(opened, { field, options, ...opening });
    if (patch) opened = { ...opened, ...patch };
  }
  return opened;
}

/**
 * What is never asked twice (WCAG 2.2 3.3.7): a field not answered yet starts with what the
 * application already holds under the name its x-ui gives (`"ui:options": { "initialFromSaved":
 * "lastName" }`: the parent's surname is the child's).
 */
function fromSaved(schema: FormSchema, data: FormData, saved: Readonly<Record<string, unknown>>): FormData {
  const filled: FormData = {};
  for (const [field, entry] of Object.entries(uiSchemaOf(schema))) {
    const options = isRecord(entry) && isRecord(entry['ui:options']) ? entry['ui:options'] : undefined;
    const name = options?.initialFromSaved;
    if (typeof name !== 'string' || (data[field] !== undefined && data[field] !== '')) continue;
    const value = saved[name];
    if (typeof value === 'string' && value !== '') filled[field] = value;
  }
  return filled;
}

function isAnswered(data: FormData, field: string): boolean {
  const value = data[field];
  const state = data[pageStateKey(field)];
  const typed = isRecord(state) && typeof state.text === 'string' && state.text !== '';
  return (value !== undefined && value !== null && value !== '') || typed;
}

export interface StepOpening {
  form: string;
  /** The flow asking it (its id: the form's overlay in x-flows). */
  flowId: string;
  applicationType: ApplicationTypeName;
  bank: PublicBankConfig;
  /** The page's path, for its draft. */
  path: string;
  /** GET /api/applications, once for all the forms of the page. */
  application: Promise<ApplicationsAnswer>;
}

/** Everything the page needs, with one GET of the application, loaded side by side with the form. */
export async function loadStep({ form, flowId, applicationType, bank, path, application }: StepOpening): Promise<LoadedStep> {
  const [schema, answer] = await Promise.all([loadSchema(form).then((loaded) => formFor(loaded.schema as FormSchema, flowId)), application]);
  const step = formStepOf(schema);
  if (!step) throw new Error(`schemas/${form}.schema.json has no "x-step": the page cannot post it`);
  const optionFields = optionFieldsOf(schema);
  const asker: OptionAsker = { applicationType, saved: { ...answer.application }, today: new Date() };
  const loadedOffers = await Promise.all(optionFields.map(({ options }) => optionSources[options.source](bank)));
  const offers = Object.fromEntries(optionFields.map(({ field }, index) => [field, loadedOffers[index] as Offer]));
  const choices = Object.fromEntries(Object.entries(offers).map(([field, offer]) => [field, offer(asker)]));
  const empty = optionFields.find(({ field, options }) => options.empty !== undefined && (choices[field] ?? []).length === 0)?.options.empty;

  const stored = answer.forms?.[form];
  const draft = step.keepDraft ? drafts.get(draftKeyOf(path, form)) : undefined;
  const shown = withoutUnoffered(isRecord(draft) ? draft : storedDataOf(schema, isRecord(stored) ? stored : {}), choices);
  // A field asked from the start and not answered yet may take the bank's value (e.g. bankCode).
  const context: FormRuleContext = { ...asker, bank, offered: choices };
  const presets = presetsOnAsking(schema, shown, new Set(Object.keys(schema.properties ?? {})), unaskedOf(fieldStatesOf(schema, shown, context)), bank);
  const initialData = await openedWidgets(schema, { ...shown, ...presets, ...fromSaved(schema, shown, asker.saved) }, { applicationType, stored: isRecord(stored) });
  // A reminder to give what is not asked of this applicant would make no sense.
  const unasked = unaskedOf(fieldStatesOf(schema, initialData, context));
  const named = step.reminder?.unlessAnswered ?? [];
  const remind = named.length > 0 && named.every((field) => !unasked.has(field)) && !named.some((field) => isAnswered(initialData, field));
  return { schema, step, offers, choices, empty, initialData, remind, answer };
}
