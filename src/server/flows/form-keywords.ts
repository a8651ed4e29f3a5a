import { Ajv, type ErrorObject } from 'ajv';
import { optionSourceNames } from '../../domain/schemas/form-step.js';

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
        notes: { type: 'object', additionalProperties: false, properties: { GENERAL: text, CHILD: text } },
        summaryTitle: text,
      },
    },
    'x-ui': { type: 'object' },
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
        },
        // Bank data are codes: a choice filled from it is a string field.
        if: { required: ['x-options'] },
        then: { properties: { type: { const: 'string' } }, required: ['type'] },
      },
    },
  },
};

const validate = new Ajv({ allErrors: true, strict: false }).compile(formKeywordsSchema);

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
    case 'const':
      return 'a field filled from bank data (x-options) must be "type": "string"';
    case 'minLength':
      return 'must not be empty';
    default:
      return error.message ?? 'is not valid here';
  }
}

/** Where a schema's form-step keywords do not have their shape. */
export function formKeywordProblems(schema: unknown): KeywordProblem[] {
  if (validate(schema)) return [];
  return (validate.errors ?? [])
    .filter((error) => error.keyword !== 'if' && !(error.keyword === 'enum' && error.instancePath.endsWith('/source')))
    .map((error) => ({ pointer: error.instancePath, message: describe(error) }));
}
