import { messages } from '../messages';
import type { FieldError } from '../rules/field-error';
import { runFormRules, type FormRuleContext } from '../rules/registry';
import { holds, isAnswered, type Condition, type ConditionScope } from './conditions';
import { isRecord, LOCKED_WHEN_KEYWORD, REQUIRED_WHEN_KEYWORD, WHEN_KEYWORD, type FormSchema } from './format';

/**
 * What the form's conditions make of each field, given the answers: whether it is asked at
 * all (`x-when`), required (listed in `required`, or while `x-required-when` holds) and locked
 * (`x-locked-when`). One judgement for every reader: the page draws it, the server checks and
 * stores by it, the confirmation page lists by it, the journeys fill by it.
 *
 * A field that is not asked is never required and never locked, its answer is neither checked
 * nor stored, and a condition that reads it sees no answer: so no applicant can be held on a
 * page by a field they cannot see.
 */
export interface FieldState {
  asked: boolean;
  required: boolean;
  locked: boolean;
}

export type FieldStates = ReadonlyMap<string, FieldState>;

const NOT_ASKED: FieldState = { asked: false, required: false, locked: false };

/** The field's state; a name the form does not have is not asked. */
export function stateOf(states: FieldStates, field: string): FieldState {
  return states.get(field) ?? NOT_ASKED;
}

/**
 * Each field's state for these answers (this form's, normalised) and context (the application's
 * stored answers in `saved`, with the answers of the page's earlier forms).
 */
export function fieldStatesOf(form: FormSchema, answers: Readonly<Record<string, unknown>>, context: FormRuleContext): Map<string, FieldState> {
  const properties = form.properties ?? {};
  const asked = new Map<string, boolean>();
  const judging = new Set<string>();
  const scope: ConditionScope = {
    // A field of this form is read from these answers, and only while it is asked; any other
    // from what earlier pages stored.
    answerOf: (field) => (Object.hasOwn(properties, field) ? (isAsked(field) ? answers[field] : undefined) : context.saved[field]),
    bankCode: context.bank.code,
    answers,
    context,
  };
  function isAsked(field: string): boolean {
    const known = asked.get(field);
    if (known !== undefined) return known;
    // A condition that reads itself round a circle (the lint refuses it) asks nothing.
    if (judging.has(field)) return false;
    judging.add(field);
    const when = properties[field]?.[WHEN_KEYWORD];
    const result = when === undefined || holds(when, scope);
    judging.delete(field);
    asked.set(field, result);
    return result;
  }
  const required = new Set(form.required ?? []);
  const states = new Map<string, FieldState>();
  for (const [field, property] of Object.entries(properties)) {
    if (!isAsked(field)) {
      states.set(field, NOT_ASKED);
      continue;
    }
    const requiredWhen = property[REQUIRED_WHEN_KEYWORD] as Condition | undefined;
    const lockedWhen = property[LOCKED_WHEN_KEYWORD] as Condition | undefined;
    states.set(field, {
      asked: true,
      required: required.has(field) || (requiredWhen !== undefined && holds(requiredWhen, scope)),
      locked: lockedWhen !== undefined && holds(lockedWhen, scope),
    });
  }
  return states;
}

/** The fields not asked. */
export function unaskedOf(states: FieldStates): Set<string> {
  return new Set([...states].flatMap(([field, state]) => (state.asked ? [] : [field])));
}

/** The answers without those of the form's fields not asked (a copy; names beside the form's fields stay). */
export function withoutUnasked(answers: Readonly<Record<string, unknown>>, states: FieldStates): Record<string, unknown> {
  return Object.fromEntries(Object.entries(answers).filter(([field]) => states.get(field)?.asked !== false));
}

/** The field an error is about: "existedAccount.0" is about "existedAccount". */
function fieldOfError(error: FieldError): string {
  return error.field.split('.')[0] ?? error.field;
}

/** The form's own message for a missing answer (errorMessage.required.<field>), else 入力が必須です。 */
export function requiredMessageOf(form: FormSchema, field: string): string {
  const byField = isRecord(form.errorMessage) && isRecord(form.errorMessage.required) ? form.errorMessage.required[field] : undefined;
  return typeof byField === 'string' ? byField : messages.required;
}

/**
 * Everything the answers of a form step fail besides the schema, as both sides judge them:
 * `answers` normalised and without the fields not asked, `schemaErrors` what the schema said of
 * them. The schema's errors of fields not asked go (it requires what `required` lists, asked or
 * not); a field required by its condition and not answered gets the form's required message;
 * the named rules speak of the fields asked only. One failure per field, the first found
 * (the schema's, the condition's, then the rules' in the order named), as the server answers.
 */
export function stepErrors(
  form: FormSchema,
  rules: readonly string[],
  answers: Readonly<Record<string, unknown>>,
  schemaErrors: readonly FieldError[],
  context: FormRuleContext,
  states: FieldStates,
): FieldError[] {
  const asked = (error: FieldError) => stateOf(states, fieldOfError(error)).asked;
  const listed = new Set(form.required ?? []);
  const missing = [...states].flatMap(([field, state]) =>
    state.required && !listed.has(field) && !isAnswered(answers[field]) ? [{ field, message: requiredMessageOf(form, field) }] : [],
  );
  const ruleErrors = rules.length === 0 ? [] : runFormRules(rules, answers, context);
  const all = [...schemaErrors.filter(asked), ...missing, ...ruleErrors.filter(asked)];
  return all.filter((error, index) => all.findIndex((other) => fieldOfError(other) === fieldOfError(error)) === index);
}

/** What judging a form step's answers gives: the answers to store (the fields not asked left out), each field's state, the failures. */
export interface Judged {
  answers: Record<string, unknown>;
  states: FieldStates;
  errors: FieldError[];
}

/**
 * A form step's answers judged as the server judges a post: `answers` normalised (and completed
 * with what the server derives), rid of the fields not asked, checked by the schema
 * (`schemaErrorsOf`, the caller's ajv) and then by stepErrors.
 */
export function judgeAnswers(
  form: FormSchema,
  rules: readonly string[],
  answers: Readonly<Record<string, unknown>>,
  context: FormRuleContext,
  schemaErrorsOf: (answers: Record<string, unknown>) => FieldError[],
): Judged {
  const states = fieldStatesOf(form, answers, context);
  const asked = withoutUnasked(answers, states);
  return { answers: asked, states, errors: stepErrors(form, rules, asked, schemaErrorsOf(asked), context, states) };
}
