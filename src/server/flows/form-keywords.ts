import type { ErrorObject, ValidateFunction } from 'ajv';
import { applicationTypeNames, optionSourceNames, storedEntityNames } from '../../domain/schemas/form-step.js';
import { startSchemas, startValidator } from '../start-validators.js';

/**
 * The shape of the form-step keywords (src/domain/schemas/form-step.ts) as the lint checks
 * them, so that a product owner's typo is named with its place instead of breaking the page:
 * the page and the server read these keywords without checking their types.
 */
const text = { type: 'string', minLength: 1 };

export const formKeywordsSchema = {
  type: 'object',
  properties: {
    'x-step': {
      type: 'object',
      required: ['post'],
      additionalProperties: false,
      properties: {
        post: text,
        rules: { type: 'array', items: { type: 'string' } },
        intro: text,
        introFor: { type: 'object', additionalProperties: false, properties: { GENERAL: text, CHILD: text } },
        notes: { type: 'object', additionalProperties: false, properties: { GENERAL: text, CHILD: text } },
        summaryTitle: text,
        derive: { type: 'array', items: text },
        summaryTitleFor: { type: 'object', additionalProperties: false, properties: { GENERAL: text, CHILD: text } },
        storedAs: { enum: [...storedEntityNames] },
        after: { type: 'array', minItems: 1, uniqueItems: true, items: text },
        reminder: {
          type: 'object',
          required: ['message', 'unlessAnswered'],
          additionalProperties: false,
          properties: { message: text, unlessAnswered: { type: 'array', minItems: 1, items: text } },
        },
        keepDraft: { type: 'boolean' },
        summary: {
          type: 'array',
          items: {
            type: 'object',
            required: ['term', 'fields'],
            additionalProperties: false,
            properties: {
              term: text,
              fields: { type: 'array', minItems: 1, items: text },
              join: { type: 'string' },
              format: { enum: ['dateWithEra', 'postalCode'] },
              withTitles: { type: 'boolean' },
              detail: { type: 'object', required: ['field'], additionalProperties: false, properties: { field: text, value: { type: 'string' } } },
              empty: { type: ['string', 'null'] },
              when: { type: 'object' },
              for: { enum: [...applicationTypeNames] },
            },
          },
        },
      },
    },
    'x-ui': { type: 'object' },
    'x-ui-for': { type: 'object', additionalProperties: false, properties: { GENERAL: { type: 'object' }, CHILD: { type: 'object' } } },
    'x-messages': { type: 'object', additionalProperties: text },
    properties: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        properties: {
          'x-options': {
            type: 'object',
            required: ['source'],
            additionalProperties: false,
            properties: {
              source: { enum: [...optionSourceNames] },
              labelAs: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9]*$' },
              empty: {
                type: 'object',
                required: ['message'],
                additionalProperties: false,
                properties: {
                  message: text,
                  link: { type: 'object', required: ['label', 'bankLink'], additionalProperties: false, properties: { label: text, bankLink: text } },
                },
              },
            },
          },
          'x-normalize': text,
          'x-when': {
            oneOf: [
              { type: 'object', required: ['condition'], additionalProperties: false, properties: { condition: text } },
              { type: 'object', required: ['for'], additionalProperties: false, properties: { for: text } },
              {
                type: 'object',
                required: ['field'],
                minProperties: 2,
                maxProperties: 2,
                additionalProperties: false,
                properties: { field: text, is: {}, isNot: {}, includes: {} },
              },
            ],
          },
        },
        // The data are codes or ids: a choice filled from it is a text or whole-number field, or a list of texts.
        if: { required: ['x-options'] },
        then: {
          anyOf: [
            { properties: { type: { enum: ['string', ['string', 'null'], 'integer', ['integer', 'null']] } }, required: ['type'] },
            { properties: { type: { const: 'array' }, items: { properties: { type: { const: 'string' } }, required: ['type'] } }, required: ['type', 'items'] },
          ],
        },
      },
    },
  },
};

let compiled: ValidateFunction | undefined;
/** Made on first use, not when the module loads (start-validators.ts). */
function validator(): ValidateFunction {
  compiled ??= startValidator(startSchemas.formKeywords, formKeywordsSchema);
  return compiled;
}

export interface KeywordProblem {
  pointer: string;
  message: string;
}

function describe(error: ErrorObject): string {
  switch (error.keyword) {
    case 'required':
      return `"${String((error.params as { missingProperty?: string }).missingProperty)}" is required here`;
    case 'additionalProperties':
      return `unknown key "${String((error.params as { additionalProperty?: string }).additionalProperty)}" here`;
    case 'enum':
      return `must be one of ${((error.params as { allowedValues?: unknown[] }).allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'anyOf':
      return 'a field filled from data (x-options) must be "type": "string" or "integer" (or either with "null"), or an "array" of strings';
    case 'oneOf':
      return '"x-when" must be { "field": <a field>, and one of "is", "isNot", "includes": <a value> }, { "condition": <a condition name> } or { "for": "GENERAL" | "CHILD" }';
    case 'minLength':
      return 'must not be empty';
    default:
      return error.message ?? 'is not valid here';
  }
}

/**
 * The errors worth a line: x-when and the type of a field with x-options are said once by
 * their oneOf/anyOf (not by each branch), and an unknown source or condition by
 * formStepProblems, with the known names.
 */
function isReported(error: ErrorObject): boolean {
  const path = error.instancePath;
  if (error.keyword === 'if') return false;
  if (error.keyword === 'enum' && path.endsWith('/source')) return false;
  if (/\/x-when(\/|$)/.test(path)) return error.keyword === 'oneOf';
  if (/\/properties\/[^/]+$/.test(path) && error.keyword === 'required' && error.schemaPath.includes('/anyOf/')) return false;
  if (/\/properties\/[^/]+\/(type|items)/.test(path)) return false;
  return true;
}

/** Where a schema's form-step keywords do not have their shape. */
export function formKeywordProblems(schema: unknown): KeywordProblem[] {
  const validate = validator();
  if (validate(schema)) return [];
  return (validate.errors ?? [])
    .filter(isReported)
    // The type of a field filled from data is judged by an anyOf on the field: point at its type.
    .map((error) => ({ pointer: error.keyword === 'anyOf' ? `${error.instancePath}/type` : error.instancePath, message: describe(error) }));
}
