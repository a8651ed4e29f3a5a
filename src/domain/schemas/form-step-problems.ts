import { escapePointerSegment } from '../json-pointer';
import { messages } from '../messages';
import { normalizerNames } from '../rules/normalizers';
import { formConditionNames, formRuleNames } from '../rules/registry';
import {
  applicationTypeNames,
  derivationNames,
  FORM_STEP_KEYWORD,
  isRecord,
  NORMALIZE_KEYWORD,
  OPTIONS_KEYWORD,
  optionSourceNames,
  storedEntityNames,
  UI_KEYWORD,
  uiSchemaOf,
  WHEN_KEYWORD,
  type FormProperty,
  type FormSchema,
} from './form-step';
import { uiConditionsOf } from './ui-conditions';

/**
 * What the flow lint says about a form step's declaration (src/server/flows/check.ts adds the
 * file and line): every name the keywords of form-step.ts use must be one a registry knows.
 */

export interface FormProblem {
  /** JSON pointer in the schema file. */
  pointer: string;
  message: string;
  /** For an unknown name: the name and the known ones (the lint suggests the nearest). */
  unknown?: { name: string; known: readonly string[] };
}

/** A name of a registry, or a problem naming the known ones. */
function unknownName(pointer: string, kind: string, name: unknown, known: readonly string[], where: string): FormProblem[] {
  if (typeof name === 'string' && known.includes(name)) return [];
  return [{ pointer, message: `unknown ${kind} "${String(name)}" (known ${kind}s, ${where}: ${known.join(', ')})`, unknown: { name: String(name), known } }];
}

/** A field's x-normalize and x-when: names the registries know, a field the form has. */
function fieldKeywordProblems(schema: FormSchema, field: string, property: FormProperty): FormProblem[] {
  const at = `/properties/${escapePointerSegment(field)}`;
  const problems: FormProblem[] = [];
  if (property[NORMALIZE_KEYWORD] !== undefined) {
    problems.push(...unknownName(`${at}/${NORMALIZE_KEYWORD}`, 'normaliser', property[NORMALIZE_KEYWORD], normalizerNames, 'src/domain/rules/normalizers.ts'));
  }
  const when = property[WHEN_KEYWORD];
  if (isRecord(when) && 'for' in when) {
    problems.push(...unknownName(`${at}/${WHEN_KEYWORD}/for`, 'application type', when.for, applicationTypeNames, 'the flows\' meta.applicationType'));
  } else if (isRecord(when) && 'condition' in when) {
    problems.push(...unknownName(`${at}/${WHEN_KEYWORD}/condition`, 'condition', when.condition, formConditionNames, 'src/domain/rules/registry.ts'));
  } else if (isRecord(when) && typeof when.field === 'string') {
    if (when.field === field) problems.push({ pointer: `${at}/${WHEN_KEYWORD}/field`, message: `"x-when" of "${field}" names the field itself` });
    else problems.push(...unknownName(`${at}/${WHEN_KEYWORD}/field`, 'field', when.field, Object.keys(schema.properties ?? {}), 'this form'));
  }
  return problems;
}

/**
 * What is wrong with a form step's declaration, for the flow lint (file and line are added by
 * the caller): its x-step, its rule names, its option sources and the order it names.
 */
export function formStepProblems(schema: FormSchema): FormProblem[] {
  const problems: FormProblem[] = [];
  const raw = schema[FORM_STEP_KEYWORD];
  if (raw === undefined) return problems;
  if (!isRecord(raw)) return [{ pointer: `/${FORM_STEP_KEYWORD}`, message: '"x-step" must be an object with "post"' }];
  if (typeof raw.post !== 'string' || !/^\/[a-z0-9/-]+$/.test(raw.post)) {
    problems.push({ pointer: `/${FORM_STEP_KEYWORD}/post`, message: '"post" must be the API path the form is posted to, e.g. "/applications/branch"' });
  }
  const rules = raw.rules ?? [];
  if (!Array.isArray(rules)) {
    problems.push({ pointer: `/${FORM_STEP_KEYWORD}/rules`, message: '"rules" must be a list of rule names' });
  } else {
    rules.forEach((rule, index) => problems.push(...unknownName(`/${FORM_STEP_KEYWORD}/rules/${index}`, 'rule', rule, formRuleNames, 'src/domain/rules/registry.ts')));
  }
  if (Array.isArray(raw.derive)) {
    raw.derive.forEach((name, index) =>
      problems.push(...unknownName(`/${FORM_STEP_KEYWORD}/derive/${index}`, 'derivation', name, derivationNames, 'src/server/forms/derivations.ts')),
    );
  }
  if (isRecord(raw.reminder)) {
    const { message, unlessAnswered } = raw.reminder;
    problems.push(...unknownName(`/${FORM_STEP_KEYWORD}/reminder/message`, 'message key', message, Object.keys(messages), 'src/domain/messages.ts'));
    const fields = Object.keys(schema.properties ?? {});
    if (Array.isArray(unlessAnswered)) {
      unlessAnswered.forEach((field, index) => problems.push(...unknownName(`/${FORM_STEP_KEYWORD}/reminder/unlessAnswered/${index}`, 'field', field, fields, 'this form')));
    }
  }
  for (const [field, property] of Object.entries(schema.properties ?? {})) {
    problems.push(...fieldKeywordProblems(schema, field, property));
    const options = property[OPTIONS_KEYWORD];
    if (options === undefined) continue;
    const pointer = `/properties/${escapePointerSegment(field)}/${OPTIONS_KEYWORD}`;
    problems.push(...unknownName(`${pointer}/source`, 'option source', isRecord(options) ? options.source : '', optionSourceNames, 'src/domain/schemas/form-step.ts'));
  }
  for (const { field, option, condition } of uiConditionsOf(schema)) {
    const pointer = `/${UI_KEYWORD}/${escapePointerSegment(field)}/ui:options/${option}`;
    problems.push(...unknownName(pointer, 'condition', condition, formConditionNames, 'src/domain/rules/registry.ts'));
  }
  const order = uiSchemaOf(schema)['ui:order'];
  if (Array.isArray(order)) {
    order.forEach((name, index) => {
      if (name !== '*' && (typeof name !== 'string' || schema.properties?.[name] === undefined)) {
        problems.push({ pointer: `/${UI_KEYWORD}/ui:order/${index}`, message: `"ui:order" names "${String(name)}", which is not a field of this form` });
      }
    });
    // rjsf refuses to draw a form whose order leaves a field out without "*", or has two "*".
    const stars = order.filter((name) => name === '*').length;
    const left = Object.keys(schema.properties ?? {}).filter((field) => !order.includes(field));
    if (stars > 1) problems.push({ pointer: `/${UI_KEYWORD}/ui:order`, message: '"ui:order" may hold "*" (every other field) once only' });
    if (stars === 0 && left.length > 0) {
      problems.push({ pointer: `/${UI_KEYWORD}/ui:order`, message: `"ui:order" leaves out ${left.map((field) => `"${field}"`).join(', ')}: name every field, or add "*" for the rest` });
    }
  }
  return problems;
}
