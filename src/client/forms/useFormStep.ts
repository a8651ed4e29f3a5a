import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { PublicBankConfig } from '../../domain/bank/types';
import type { FormRuleContext } from '../../domain/rules/registry';
import { normalizeAnswers } from '../../domain/forms/answers';
import { fieldStatesOf, stepErrors, unaskedOf, withoutUnasked, type FieldStates } from '../../domain/forms/field-states';
import { isRecord, uiSchemaOf, type ApplicationTypeName, type FormSchema } from '../../domain/forms/format';
import { errorTargetsOf } from '../../domain/forms/order';
import type { ApplicationsAnswer } from '../api/application';
import { drafts } from '../platform/drafts';
import { useLoaded } from '../runtime/useLoaded';
import { useAddressSearch } from './addressSearch';
import { useFuriganaSuggestion } from './furigana';
import { draftKeyOf, loadStep, withoutUnoffered, type LoadedStep } from './loadStep';
import { pageStateKey } from './pageState';
import type { FieldError, FormApi, FormData, SchemaFormProps } from './SchemaForm';
import { presetsOnAsking, stepUiSchema } from './stepUi';
import type { Choice } from './widgets/choices';
import { widgetBehaviours } from './widgets';

export type { LoadedStep } from './loadStep';

/**
 * A form step of the generic engine as a page asks it, from its schema alone (FormStep), as
 * its flow asks it (x-flows): the SchemaForm props that draw it as the answers stand (x-ui,
 * what the conditions make of each field, the widgets' state), check it as the server will
 * (normalised, without the fields not asked, the conditions and the named rules, what the
 * widgets block) and lend the widgets the postal code search, the furigana and the way to the
 * error page.
 */

/** What the answers decide of the drawing: each field's state (field-states.ts) and the widgets' state. `key` tells a change. */
interface Drawn {
  states: FieldStates;
  pageStates: Record<string, unknown>;
  key: string;
}

/** What the page keeps beside the schema's fields: the widgets' state, what a code brought (not posted). */
function besideAnswers(form: FormSchema, data: FormData): FormData {
  const properties = form.properties ?? {};
  return Object.fromEntries(Object.entries(data).filter(([key]) => !Object.hasOwn(properties, key)));
}

/** The answers as the conditions and the rules judge them: normalised, with what the page keeps beside them. */
function prepared(form: FormSchema, data: FormData): FormData {
  return { ...besideAnswers(form, data), ...normalizeAnswers(form, data) };
}

function drawnOf(form: FormSchema, answers: FormData, context: FormRuleContext): Drawn {
  const states = fieldStatesOf(form, prepared(form, answers), context);
  const pageStates = Object.fromEntries(Object.keys(form.properties ?? {}).flatMap((field) => (pageStateKey(field) in answers ? [[field, answers[pageStateKey(field)]]] : [])));
  return { states, pageStates, key: JSON.stringify([[...states], pageStates]) };
}

/** The widgets' own checks (a code typed and not applied), for the fields asked. */
function widgetErrors(form: FormSchema, judged: FormData, states: FieldStates): FieldError[] {
  return Object.entries(uiSchemaOf(form)).flatMap(([field, entry]) => {
    if (states.get(field)?.asked === false || !isRecord(entry) || typeof entry['ui:widget'] !== 'string') return [];
    const check = widgetBehaviours[entry['ui:widget']]?.check;
    return check ? check(field, judged, isRecord(entry['ui:options']) ? entry['ui:options'] : {}) : [];
  });
}

export type FormStepProps = Pick<
  SchemaFormProps,
  'schemaName' | 'initialData' | 'uiSchema' | 'formContext' | 'onDataChange' | 'onFieldBlur' | 'errorTargets' | 'ownValidation' | 'normalize' | 'judge' | 'apiRef'
>;

export interface FormStepState {
  loaded: LoadedStep;
  /** The props that draw and check the form. */
  formProps: FormStepProps;
  /** The answers as posted: normalised, without the fields not asked, nothing but the schema's fields. */
  answersOf: (data: FormData) => FormData;
  /** Forget what was typed and not sent (after the form was saved). */
  dropDraft: () => void;
}

export interface FormStepOptions {
  /** The page's path (its draft). */
  path: string;
  /** GET /api/applications as the page asked it (once for all its forms). */
  application: Promise<ApplicationsAnswer>;
  /** The answers of the page's earlier forms as they stand: stored before this one is, they count as saved. */
  earlier?: FormData;
  /** Every change of the answers (a later form of the page reads them). */
  onAnswers?: (data: FormData) => void;
}

const NO_ANSWERS: FormData = {};

/** Which form, asked by which flow (its id, for the form's overlay in x-flows, and its application type). */
export interface AskedForm {
  form: string;
  flowId: string;
  applicationType: ApplicationTypeName;
}

export function useFormStep(
  { form, flowId, applicationType }: AskedForm,
  bank: PublicBankConfig,
  fail: (error?: unknown) => void,
  { path, application, earlier = NO_ANSWERS, onAnswers }: FormStepOptions,
): FormStepState | null {
  const loaded = useLoaded(() => loadStep({ form, flowId, applicationType, bank, path, application }), [form, flowId, applicationType, bank, path, application], fail);
  /** What the answers decide of the drawing since they last changed it (for the form as loaded). */
  const [changed, setChanged] = useState<{ of: LoadedStep; drawn: Drawn } | null>(null);
  const formApi = useRef<FormApi>(null);
  const addressSearch = useAddressSearch(fail);
  const formContext = useMemo(() => ({ ...addressSearch, fail }), [addressSearch, fail]);
  const suggestFurigana = useFuriganaSuggestion(fail);

  const saved = useMemo(() => ({ ...loaded?.answer.application, ...earlier }), [loaded, earlier]);
  // A choice that follows an earlier answer of the page (the child's occupations, the birthday) is offered anew.
  const choices = useMemo<Record<string, Choice[]>>(() => {
    if (!loaded || earlier === NO_ANSWERS) return loaded?.choices ?? {};
    return Object.fromEntries(Object.entries(loaded.offers).map(([field, offer]) => [field, offer({ applicationType, saved, today: new Date() })]));
  }, [loaded, earlier, applicationType, saved]);
  const context = useMemo<FormRuleContext>(() => ({ applicationType, bank, today: new Date(), saved, offered: choices }), [applicationType, bank, saved, choices]);

  // An answer no longer offered is cleared (a birthday that does not allow the chosen occupation).
  useEffect(() => {
    const api = formApi.current;
    if (!api || choices === loaded?.choices) return;
    const data = api.getData();
    const kept = withoutUnoffered(data, choices);
    const cleared = Object.keys(choices).filter((field) => data[field] !== undefined && kept[field] !== data[field]);
    if (cleared.length > 0) api.patch(Object.fromEntries(cleared.map((field) => [field, kept[field]])));
  }, [choices, loaded]);

  const drawn = useMemo(
    () => (!loaded ? null : changed?.of === loaded ? changed.drawn : drawnOf(loaded.schema, loaded.initialData, context)),
    [loaded, changed, context],
  );
  const drawnRef = useRef(drawn);
  drawnRef.current = drawn;

  // `drawn` changes only when what it holds does (onDataChange keeps it otherwise).
  const uiSchema = useMemo(
    () => (loaded && drawn ? stepUiSchema(loaded.schema, { bank, choices, states: drawn.states, pageStates: drawn.pageStates }) : {}),
    [loaded, bank, choices, drawn],
  );
  const errorTargets = useMemo(() => (loaded ? errorTargetsOf(loaded.schema) : {}), [loaded]);
  const draftKey = loaded?.step.keepDraft ? draftKeyOf(path, form) : null;

  // A field comes to be asked or goes as the answers change (x-when), becomes required or
  // locked (x-required-when, x-locked-when), or a widget's state changes; one just asked may take the bank's value.
  const onDataChange = useCallback(
    (data: FormData, _previous: FormData, api: FormApi) => {
      if (!loaded) return;
      if (draftKey) drafts.set(draftKey, data);
      onAnswers?.(data);
      const next = drawnOf(loaded.schema, data, context);
      const before = drawnRef.current;
      if (before && next.key === before.key) return;
      const patch = presetsOnAsking(loaded.schema, data, unaskedOf(before?.states ?? new Map()), unaskedOf(next.states), bank);
      drawnRef.current = next;
      setChanged({ of: loaded, drawn: next });
      if (patch) api.patch(patch);
    },
    [loaded, context, bank, draftKey, onAnswers],
  );

  // The schema, the conditions and the rules judge the answers as the server will: normalised,
  // without the fields not asked (SchemaForm's own validation, so that the schema sees them so
  // too), with what the page keeps beside them (a code's state, what it brought) for the
  // widgets and the conditions.
  const statesOf = useCallback((data: FormData) => (loaded ? fieldStatesOf(loaded.schema, prepared(loaded.schema, data), { ...context, today: new Date() }) : new Map()), [loaded, context]);
  const judged = useCallback((data: FormData): FormData => (loaded ? withoutUnasked(prepared(loaded.schema, data), statesOf(data)) : data), [loaded, statesOf]);
  const answersOf = useCallback((data: FormData): FormData => (loaded ? normalizeAnswers(loaded.schema, judged(data)) : data), [loaded, judged]);
  const judge = useCallback(
    (answers: FormData, schemaErrors: FieldError[]): FieldError[] => {
      if (!loaded) return schemaErrors;
      const states = statesOf(answers);
      const now = { ...context, today: new Date() };
      return [...stepErrors(loaded.schema, loaded.step.rules, answers, schemaErrors, now, states), ...widgetErrors(loaded.schema, answers, states)];
    },
    [loaded, context, statesOf],
  );
  const dropDraft = useCallback(() => {
    if (draftKey) drafts.remove(draftKey);
  }, [draftKey]);

  return useMemo(
    () =>
      loaded && {
        loaded,
        answersOf,
        dropDraft,
        formProps: {
          schemaName: form,
          initialData: loaded.initialData,
          uiSchema,
          formContext,
          onDataChange,
          onFieldBlur: suggestFurigana,
          errorTargets,
          ownValidation: true,
          normalize: judged,
          judge,
          apiRef: formApi,
        },
      },
    [loaded, answersOf, dropDraft, judged, form, uiSchema, formContext, onDataChange, suggestFurigana, errorTargets, judge],
  );
}
