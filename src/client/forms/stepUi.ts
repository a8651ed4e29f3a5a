import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { PublicBankConfig } from '../../domain/bank/types';
import type { FieldStates } from '../../domain/forms/field-states';
import { isRecord, uiSchemaOf, type FormSchema } from '../../domain/forms/format';
import type { FormData } from './context';
import type { Choice } from './widgets/choices';
import { widgetBehaviours } from './widgets';

/**
 * A form step's uiSchema as the page draws it, from the form as its flow asks it (the overlay
 * of x-flows laid over it): its x-ui, the bank's words in its texts ({bankName},
 * {homePrefecture}), the choices of its x-options fields, and what the answers make of each
 * field (field-states.ts): hidden while not asked, marked 必須 or 任意, locked.
 */

/** A field not asked now: no control, its value kept in the form data only. */
const HIDDEN = { 'ui:widget': 'hidden' } as const;

/** The bank's words a text of x-ui or x-step may hold. */
export function withBankWords(text: string, bank: Pick<PublicBankConfig, 'NAME' | 'homePrefecture'>): string {
  return text.replaceAll('{bankName}', bank.NAME).replaceAll('{homePrefecture}', bank.homePrefecture);
}

/** Every string of a uiSchema with the bank's words (a copy). */
function bankWordsIn(value: unknown, bank: PublicBankConfig): unknown {
  if (typeof value === 'string') return withBankWords(value, bank);
  if (Array.isArray(value)) return value.map((item) => bankWordsIn(item, bank));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, bankWordsIn(item, bank)]));
  return value;
}

export interface StepUiInput {
  bank: PublicBankConfig;
  /** The choices of each x-options field. */
  choices: Readonly<Record<string, Choice[]>>;
  /** What the answers make of each field now (fieldStatesOf). */
  states: FieldStates;
  /** The state a widget keeps beside its field's answer (pageState.ts), by field: the widget reads it as ui:options.pageState. */
  pageStates?: Readonly<Record<string, unknown>>;
}

/** A field's entry with more keys and ui:options (a copy). */
function withOptions(entry: unknown, options: Record<string, unknown>, more: Record<string, unknown> = {}): Record<string, unknown> {
  const own = isRecord(entry) ? entry : {};
  return { ...own, ...more, 'ui:options': { ...(isRecord(own['ui:options']) ? own['ui:options'] : {}), ...options } };
}

/** 必須 or 任意 as the model says, unless the widget asks a question of its own that must be answered (the existing account's yes/no). */
function requirementOf(entry: unknown, required: boolean): 'required' | 'optional' {
  const widget = isRecord(entry) && typeof entry['ui:widget'] === 'string' ? widgetBehaviours[entry['ui:widget']] : undefined;
  return required || widget?.asksRequiredQuestion === true ? 'required' : 'optional';
}

export function stepUiSchema(form: FormSchema, { bank, choices, states, pageStates = {} }: StepUiInput): UiSchema<FormData, RJSFSchema> {
  const ui = bankWordsIn(uiSchemaOf(form), bank) as Record<string, unknown>;
  for (const [field, offered] of Object.entries(choices)) ui[field] = withOptions(ui[field], { choices: offered });
  for (const [field, state] of Object.entries(pageStates)) ui[field] = withOptions(ui[field], { pageState: state });
  for (const [field, state] of states) {
    if (!state.asked) {
      ui[field] = { ...(isRecord(ui[field]) ? ui[field] : {}), ...HIDDEN };
      continue;
    }
    // A locked field shows its value, not an example.
    const locked = state.locked ? { 'ui:readonly': true, 'ui:placeholder': undefined } : {};
    ui[field] = withOptions(ui[field], { requirement: requirementOf(ui[field], state.required) }, locked);
  }
  return ui;
}

/**
 * What a change of the answers presets: a field that has just come to be asked and is empty
 * takes the bank's value its x-ui names (`"ui:options": { "initialFromBank": "DEFAULT_TEMP_ADDRESS_PREFECTURE" }`).
 */
export function presetsOnAsking(form: FormSchema, data: FormData, wasUnasked: ReadonlySet<string>, unasked: ReadonlySet<string>, bank: PublicBankConfig): FormData | null {
  const patch: FormData = {};
  for (const [field, entry] of Object.entries(uiSchemaOf(form))) {
    const options = isRecord(entry) && isRecord(entry['ui:options']) ? entry['ui:options'] : undefined;
    const key = options?.initialFromBank;
    if (typeof key !== 'string' || !wasUnasked.has(field) || unasked.has(field)) continue;
    const value = (bank as unknown as Record<string, unknown>)[key];
    if ((data[field] === undefined || data[field] === '') && typeof value === 'string') patch[field] = value;
  }
  return Object.keys(patch).length > 0 ? patch : null;
}
