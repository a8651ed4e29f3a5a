import { readdirSync, readFileSync } from 'node:fs';
import { Ajv, type AnySchema, type ErrorObject, type ValidateFunction } from 'ajv';
import ajvErrors from 'ajv-errors';
import ajvFormats from 'ajv-formats';
import type { FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { messages } from '../domain/messages.js';
import { resolveSchemaMessages } from '../domain/schemas/messages.js';

/**
 * Request validation from the JSON Schemas in /schemas, the same files the browser forms use,
 * so the server and the page can never disagree on a rule or its Japanese message (the
 * schemas' `errorMessage` keywords name messages of src/domain/messages.ts by key, resolved
 * here as in the browser's build; ajv-errors). Route-specific body schemas
 * compose the shared ones by `$ref: '<file name>'`.
 */

const schemasDir = new URL('../../schemas/', import.meta.url);

import type { FieldError } from '../domain/rules/field-error.js';
export type { FieldError };

/** The 400 body of every validation failure: message is the first field's message. */
export interface ValidationFailure {
  message: string;
  errors: FieldError[];
}

let instance: Ajv | undefined;

/** One Ajv for the process, holding every schemas/*.schema.json under its $id (its file name). */
function ajv(): Ajv {
  if (instance) return instance;
  // allErrors is required by ajv-errors; strict mode catches typos in the shared schemas.
  const created = new Ajv({ allErrors: true, strict: true, $data: true });
  ajvFormats(created);
  ajvErrors(created);
  for (const file of readdirSync(schemasDir).filter((name) => name.endsWith('.schema.json')).sort()) {
    const schema = resolveSchemaMessages(JSON.parse(readFileSync(new URL(file, schemasDir), 'utf8')) as { $id?: string }, `schemas/${file}`);
    // Schemas are referenced by file name whatever their $id says.
    created.addSchema(schema, schema.$id === undefined ? file : undefined);
  }
  instance = created;
  return created;
}

const compiled = new Map<AnySchema, ValidateFunction>();

/**
 * A validator for a shared schema (by file name, e.g. 'mail-address.schema.json') or for an
 * inline schema that may `$ref` the shared ones. Compiled once per schema object.
 */
export function validator<T = unknown>(schema: string | AnySchema): ValidateFunction<T> {
  if (typeof schema === 'string') {
    const found = ajv().getSchema<T>(schema);
    if (!found) throw new Error(`No schema ${schema} in /schemas`);
    return found;
  }
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv().compile(schema);
    compiled.set(schema, validate);
  }
  return validate as ValidateFunction<T>;
}

function fieldOf(error: ErrorObject): string {
  // ajv-errors wraps the original errors; a `required` error points at the parent object.
  const original = error.keyword === 'errorMessage' ? (error.params as { errors?: ErrorObject[] }).errors?.[0] : error;
  const missing = (original?.params as { missingProperty?: unknown } | undefined)?.missingProperty;
  const pointer = error.instancePath.split('/').slice(1).join('.');
  if (typeof missing === 'string') return pointer ? `${pointer}.${missing}` : missing;
  return pointer;
}

/**
 * Turns Ajv errors into the 400 body: one entry per field and message (an empty address fails
 * minLength and format with the same text), messages without an errorMessage falling back to
 * messages.badRequest.
 */
export function toValidationFailure(errors: ErrorObject[] | null | undefined): ValidationFailure {
  const list: FieldError[] = [];
  for (const error of errors ?? []) {
    // An if/then/else reports the failed branch's own errors plus one "if" error that says
    // nothing to the applicant.
    if (error.keyword === 'if') continue;
    const entry = {
      field: fieldOf(error),
      message: error.keyword === 'errorMessage' && error.message ? error.message : messages.badRequest,
    };
    if (!list.some((seen) => seen.field === entry.field && seen.message === entry.message)) list.push(entry);
  }
  return { message: list[0]?.message ?? messages.badRequest, errors: list };
}

/** Validates a value; returns null when valid, else the 400 body. */
export function check(schema: string | AnySchema, value: unknown): ValidationFailure | null {
  const validate = validator(schema);
  return validate(value) ? null : toValidationFailure(validate.errors);
}

/**
 * A preValidation hook that answers 400 `{ message, errors }` unless the body matches. We run
 * our own Ajv (with ajv-errors) rather than Fastify's route `schema.body` because Fastify's
 * compiler has no ajv-errors and answers its own message shape. `normalize` may rewrite the
 * body first (e.g. strip spaces from a code) so the schema sees what the handler will use.
 */
export function validateBody(
  schema: string | AnySchema,
  normalize?: (body: Record<string, unknown>) => void,
): preValidationAsyncHookHandler {
  const validate = validator(schema);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const body = request.body;
    if (normalize && typeof body === 'object' && body !== null && !Array.isArray(body)) {
      normalize(body as Record<string, unknown>);
    }
    if (!validate(body)) {
      return reply.code(400).send(toValidationFailure(validate.errors));
    }
  };
}
