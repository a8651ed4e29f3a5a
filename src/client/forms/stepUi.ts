import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { PublicBankConfig } from '../../domain/bank/types';
import type { ApplicationTypeName } from '../../domain/schemas/form-step';
import { isRecord, uiSchemaOf, UI_FOR_TYPE_KEYWORD, type FormSchema } from '../../domain/schemas/form-step';
import { uiConditionsOf, type UiConditionOption } from '../../domain/schemas/ui-conditions';
import type { FormData } from './context';
import type { Choice } from './widgets/choices';

/**
 * A form step's uiSchema as the page draws it, from the schema alone: its x-ui, the overrides
 * of the application type (x-ui-for, e.g. the child's name is not the browser's autofill),
 * the bank's words in its texts ({bankName}, {homePrefecture}), the choices of its x-options
 * fields, and the fields not asked now (x-when) hidden.
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

/** `over` laid on `base`, objects merged key by key (a list or a text replaces). */
function merged(base: unknown, over: unknown): unknown {
  if (!isRecord(base) || !isRecord(over)) return over;
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) result[key] = merged(base[key], value);
  return result;
}

export interface StepUiInput {
  applicationType: ApplicationTypeName;
  bank: PublicBankConfig;
  /** The choices of each x-options field. */
  choices: Readonly<Record<string, Choice[]>>;
  /** The fields the answers do not ask now (unaskedFields). */
  unasked: ReadonlySet<string>;
  /** The fields whose ui:options condition holds now (heldUiConditions). */
  held: Readonly<Record<UiConditionOption, ReadonlySet<string>>>;
  /** The state a widget keeps beside its field's answer (pageState.ts), by field: the widget reads it as ui:options.pageState. */
  pageStates?: Readonly<Record<string, unknown>>;
}

/** A field's entry with more keys and ui:options (a copy). */
function withOptions(entry: unknown, options: Record<string, unknown>, more: Record<string, unknown> = {}): Record<string, unknown> {
  const own = isRecord(entry) ? entry : {};
  return { ...own, ...more, 'ui:options': { ...(isRecord(own['ui:options']) ? own['ui:options'] : {}), ...options } };
}

export function stepUiSchema(schema: FormSchema, { applicationType, bank, choices, unasked, held, pageStates = {} }: StepUiInput): UiSchema<FormData, RJSFSchema> {
  const forType = schema[UI_FOR_TYPE_KEYWORD];
  const typed = isRecord(forType) ? forType[applicationType] : undefined;
  const ui = bankWordsIn(merged(uiSchemaOf(schema), typed ?? {}), bank) as Record<string, unknown>;
  for (const [field, offered] of Object.entries(choices)) ui[field] = withOptions(ui[field], { choices: offered });
  for (const [field, state] of Object.entries(pageStates)) ui[field] = withOptions(ui[field], { pageState: state });
  for (const { field, option } of uiConditionsOf(schema)) {
    const holds = held[option].has(field);
    if (option === 'requiredWhen') ui[field] = withOptions(ui[field], { requirement: holds ? 'required' : 'optional' });
    // A locked field shows its value, not an example.
    else ui[field] = withOptions(ui[field], {}, { 'ui:readonly': holds, ...(holds ? { 'ui:placeholder': undefined } : {}) });
  }
  for (const field of unasked) ui[field] = { ...(isRecord(ui[field]) ? ui[field] : {}), ...HIDDEN };
  return ui;
}

/**
 * What a change of the answers presets: a field that has just come to be asked and is empty
 * takes the bank's value its x-ui names (`"ui:options": { "initialFromBank": "DEFAULT_TEMP_ADDRESS_PREFECTURE" }`).
 */
export function presetsOnAsking(schema: FormSchema, data: FormData, wasUnasked: ReadonlySet<string>, unasked: ReadonlySet<string>, bank: PublicBankConfig): FormData | null {
  const patch: FormData = {};
  for (const [field, entry] of Object.entries(uiSchemaOf(schema))) {
    const options = isRecord(entry) && isRecord(entry['ui:options']) ? entry['ui:options'] : undefined;
    const key = options?.initialFromBank;
    if (typeof key !== 'string' || !wasUnasked.has(field) || unasked.has(field)) continue;
    const value = (bank as unknown as Record<string, unknown>)[key];
    if ((data[field] === undefined || data[field] === '') && typeof value === 'string') patch[field] = value;
  }
  return Object.keys(patch).length > 0 ? patch : null;
}
