import { useCallback, useMemo, useRef, useState } from 'react';
import type { PublicBankConfig } from '../../domain/bank/types';
import type { ApplicationTypeName } from '../../domain/schemas/form-step';
import type { FormRuleContext } from '../../domain/rules/registry';
import {
  askedRuleErrors,
  errorTargetsOf,
  formStepOf,
  isRecord,
  normalizeAnswers,
  optionFieldsOf,
  unaskedFields,
  withoutUnasked,
  type FormSchema,
  type FormStepDeclaration,
  type OptionsDeclaration,
} from '../../domain/schemas/form-step';
import { heldUiConditions, type UiConditionOption } from '../../domain/schemas/ui-conditions';
import { api } from '../api/client';
import type { ApplicationsAnswer } from '../api/application';
import { useLoaded } from '../runtime/useLoaded';
import { useAddressSearch } from './addressSearch';
import { useFuriganaSuggestion } from './furigana';
import { optionSources } from './options';
import type { FieldError, FormApi, FormData, SchemaFormProps } from './SchemaForm';
import { loadSchema } from './schemas';
import { presetsOnAsking, stepUiSchema } from './stepUi';
import type { Choice } from './widgets/choices';

/**
 * A form step of the generic engine as a page asks it, from its schema alone (FormStep, and a
 * page that adds its own controls around the same form): the schema, the stored answers, the
 * choices of its x-options fields, and the SchemaForm props that draw it as the answers stand
 * (x-ui, x-ui-for, x-when), check it as the server will (normalised, without the fields not
 * asked, the named rules) and lend the widgets the postal code search and the furigana.
 */

export interface LoadedStep {
  schema: FormSchema;
  step: FormStepDeclaration;
  /** The choices of each field filled from data (x-options). */
  choices: Record<string, Choice[]>;
  /** A field whose source offers nothing and says what the page shows instead. */
  empty: OptionsDeclaration['empty'] | undefined;
  initialData: FormData;
  /** GET /api/applications as read on arrival (the stored application, for rules across steps). */
  answer: ApplicationsAnswer;
}

/** The answers shown again: the form's stored document; a choice no longer offered is not preselected. */
function initialDataOf(schema: FormSchema, form: string, answer: ApplicationsAnswer, choices: Record<string, Choice[]>): FormData {
  const stored = answer.forms?.[form];
  const data = normalizeAnswers(schema, isRecord(stored) ? stored : {});
  for (const [field, offered] of Object.entries(choices)) {
    const value = data[field];
    if (value === undefined) continue;
    const known = (item: unknown) => offered.some((choice) => String(choice.value) === String(item));
    if (Array.isArray(value)) data[field] = value.filter(known);
    else if (!known(value)) delete data[field];
  }
  return data;
}

/** Everything the page needs, with one GET of the application, loaded side by side with the form. */
async function loadStep(form: string, applicationType: ApplicationTypeName, bank: PublicBankConfig): Promise<LoadedStep> {
  const [schema, answer] = await Promise.all([loadSchema(form).then((loaded) => loaded.schema as FormSchema), api<ApplicationsAnswer>('/applications')]);
  const step = formStepOf(schema);
  if (!step) throw new Error(`schemas/${form}.schema.json has no "x-step": the page cannot post it`);
  const optionFields = optionFieldsOf(schema);
  const asker = { applicationType, saved: { ...answer.application }, today: new Date() };
  const offered = await Promise.all(optionFields.map(({ options }) => optionSources[options.source](bank, asker)));
  const choices = Object.fromEntries(optionFields.map(({ field }, index) => [field, offered[index] ?? []]));
  const empty = optionFields.find(({ field, options }) => options.empty !== undefined && (choices[field] ?? []).length === 0)?.options.empty;
  const initialData = initialDataOf(schema, form, answer, choices);
  // A field asked from the start and not answered yet may take the bank's value (e.g. bankCode).
  const unasked = unaskedFields(schema, initialData, { applicationType, bank, today: asker.today, saved: asker.saved, offered: choices });
  const presets = presetsOnAsking(schema, initialData, new Set(Object.keys(schema.properties ?? {})), unasked, bank);
  return { schema, step, choices, empty, initialData: { ...initialData, ...presets }, answer };
}

/**
 * What the answers decide of the drawing: the fields not asked (x-when) and those whose
 * ui:options condition holds (requiredWhen, readonlyWhen). `key` tells a change.
 */
interface Drawn {
  unasked: ReadonlySet<string>;
  held: Record<UiConditionOption, ReadonlySet<string>>;
  key: string;
}

const keyOf = (fields: ReadonlySet<string>) => [...fields].sort().join(',');

function drawnOf(schema: FormSchema, answers: FormData, context: FormRuleContext): Drawn {
  const unasked = unaskedFields(schema, answers, context);
  const held = heldUiConditions(schema, answers, context);
  return { unasked, held, key: [keyOf(unasked), keyOf(held.requiredWhen), keyOf(held.readonlyWhen)].join('|') };
}

const NOTHING_DRAWN: Drawn = { unasked: new Set(), held: { requiredWhen: new Set(), readonlyWhen: new Set() }, key: '' };

export type FormStepProps = Pick<
  SchemaFormProps,
  'schemaName' | 'initialData' | 'uiSchema' | 'formContext' | 'onDataChange' | 'onFieldBlur' | 'errorTargets' | 'ownValidation' | 'normalize' | 'ruleErrors'
>;

export interface FormStepState {
  loaded: LoadedStep;
  /** The props that draw and check the form (a page may add its own formContext and templates). */
  formProps: FormStepProps;
  /** The answers as posted: normalised, without the fields not asked. */
  answersOf: (data: FormData) => FormData;
}

export function useFormStep(form: string, applicationType: ApplicationTypeName, bank: PublicBankConfig, fail: (error?: unknown) => void): FormStepState | null {
  const loaded = useLoaded(() => loadStep(form, applicationType, bank), [form, applicationType, bank], fail);
  /** What the answers decide of the drawing since they last changed it (for the form as loaded). */
  const [changed, setChanged] = useState<{ of: LoadedStep; drawn: Drawn } | null>(null);
  const formContext = useAddressSearch(fail);
  const suggestFurigana = useFuriganaSuggestion(fail);

  const context = useMemo<FormRuleContext>(
    () => ({ applicationType, bank, today: new Date(), saved: { ...loaded?.answer.application }, offered: loaded?.choices }),
    [applicationType, bank, loaded],
  );
  const drawn = useMemo(
    () => (!loaded ? NOTHING_DRAWN : changed?.of === loaded ? changed.drawn : drawnOf(loaded.schema, loaded.initialData, context)),
    [loaded, changed, context],
  );
  const drawnRef = useRef(drawn);
  drawnRef.current = drawn;

  // `drawn` changes only when what it holds does (onDataChange keeps it otherwise).
  const uiSchema = useMemo(
    () => (loaded ? stepUiSchema(loaded.schema, { applicationType, bank, choices: loaded.choices, unasked: drawn.unasked, held: drawn.held }) : {}),
    [loaded, applicationType, bank, drawn],
  );
  const errorTargets = useMemo(() => (loaded ? errorTargetsOf(loaded.schema) : {}), [loaded]);

  // A field comes to be asked or goes as the answers change (x-when), or becomes required or
  // locked (ui:options conditions); one just asked may take the bank's value.
  const onDataChange = useCallback(
    (data: FormData, _previous: FormData, formApi: FormApi) => {
      if (!loaded) return;
      const next = drawnOf(loaded.schema, data, context);
      if (next.key === drawnRef.current.key) return;
      const patch = presetsOnAsking(loaded.schema, data, drawnRef.current.unasked, next.unasked, bank);
      drawnRef.current = next;
      setChanged({ of: loaded, drawn: next });
      if (patch) formApi.patch(patch);
    },
    [loaded, context, bank],
  );

  // The schema and the rules judge the answers as the server will: normalised, without the
  // fields not asked (SchemaForm's own validation, so that the schema sees them so too).
  const normalize = useCallback(
    (data: FormData): FormData => (loaded ? withoutUnasked(loaded.schema, normalizeAnswers(loaded.schema, data), context) : data),
    [loaded, context],
  );
  const ruleErrors = useCallback(
    (answers: FormData): FieldError[] => (loaded ? askedRuleErrors(loaded.schema, loaded.step.rules, answers, { ...context, today: new Date() }) : []),
    [loaded, context],
  );

  return useMemo(
    () =>
      loaded && {
        loaded,
        answersOf: normalize,
        formProps: {
          schemaName: form,
          initialData: loaded.initialData,
          uiSchema,
          formContext,
          onDataChange,
          onFieldBlur: suggestFurigana,
          errorTargets,
          ownValidation: true,
          normalize,
          ruleErrors,
        },
      },
    [loaded, normalize, form, uiSchema, formContext, onDataChange, suggestFurigana, errorTargets, ruleErrors],
  );
}
