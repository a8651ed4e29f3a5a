import { readdirSync, readFileSync } from 'node:fs';
import type { Ajv, AnySchema, ErrorObject, ValidateFunction } from 'ajv';
import type { FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { messages } from '../domain/messages.js';
import { resolvedFormSchema } from '../domain/forms/resolve.js';
import { ajvOptions, extendAjv } from '../domain/schemas/ajv-setup.js';
import { join } from 'node:path';
import { repositoryRoot } from './paths.js';
import { builtValidators, newAjv, type StartSchema } from './start-validators.js';

/**
 * Request validation from the JSON Schemas in /schemas, the same files the browser forms use,
 * so the server and the page can never disagree on a rule or its Japanese message (the
 * schemas' `errorMessage` keywords name messages of src/domain/messages.ts by key, resolved
 * here as in the browser's build; ajv-errors), compiled with the browser's ajv options
 * (domain/schemas/ajv-setup.ts) in strict mode. Route-specific body schemas
 * compose the shared ones by `$ref: '<file name>'`.
 */

/** The schemas folder of the repository; a server with SCHEMAS_DIR passes its own. */
export const defaultSchemasDir = join(repositoryRoot, 'schemas');

import type { FieldError } from '../domain/rules/field-error.js';
export type { FieldError };

/** The 400 body of every validation failure: message is the first field's message. */
export interface ValidationFailure {
  message: string;
  errors: FieldError[];
}

/** One Ajv per schemas folder, holding every <name>.schema.json under its file name. */
const instances = new Map<string, Ajv>();

const schemasByDir = new Map<string, Map<string, Record<string, unknown>>>();

/**
 * Every <name>.schema.json of a folder, its message keys resolved: name → schema. Read once
 * per folder and process, for the form catalogue and for ajv alike.
 */
export function readSchemas(dir: string): Map<string, Record<string, unknown>> {
  const known = schemasByDir.get(dir);
  if (known) return known;
  const schemas = new Map<string, Record<string, unknown>>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.schema.json')).sort()) {
    const raw = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
    schemas.set(file.slice(0, -'.schema.json'.length), resolvedFormSchema(raw, `schemas/${file}`));
  }
  schemasByDir.set(dir, schemas);
  return schemas;
}

/**
 * The browser's options (ajv-setup.ts), but strict: a typo in a shared schema fails the lint
 * and the start (plugins/forms.ts has every form's validator before the server listens).
 */
export const formsStartSchema: StartSchema = { name: 'forms', options: { ...ajvOptions, strict: true }, formats: true, extend: extendAjv };

/** The schemas of a folder by the id ajv knows them by: the file name, or the $id the lint wants to be that name. */
export function schemasById(dir: string): Record<string, Record<string, unknown>> {
  const byId: Record<string, Record<string, unknown>> = {};
  for (const [name, schema] of readSchemas(dir)) byId[typeof schema.$id === 'string' ? schema.$id : `${name}.schema.json`] = schema;
  return byId;
}

function ajv(dir: string): Ajv {
  const found = instances.get(dir);
  if (found) return found;
  const created = newAjv(formsStartSchema);
  for (const [name, schema] of readSchemas(dir)) {
    // Schemas are referenced by file name; the lint wants $id, when given, to be that name.
    created.addSchema(schema, schema.$id === undefined ? `${name}.schema.json` : undefined);
  }
  instances.set(dir, created);
  return created;
}

/** Per folder: the build's validators of its schemas (start-validators.ts), or null when they are not these schemas'. */
const builtByDir = new Map<string, Record<string, ValidateFunction> | null>();

function builtValidator(name: string, dir: string): ValidateFunction | undefined {
  let built = builtByDir.get(dir);
  if (built === undefined) builtByDir.set(dir, (built = builtValidators(formsStartSchema, schemasById(dir)) ?? null));
  return built?.[name];
}

const compiled = new Map<Ajv, Map<AnySchema, ValidateFunction>>();

/**
 * A validator for a shared schema (by file name, e.g. 'mail-address.schema.json') or for an
 * inline schema that may `$ref` the shared ones, from the schemas of `dir`. Compiled once.
 */
export function validator<T = unknown>(schema: string | AnySchema, dir = defaultSchemasDir): ValidateFunction<T> {
  if (typeof schema === 'string') {
    const built = builtValidator(schema, dir);
    if (built) return built as ValidateFunction<T>;
    const found = ajv(dir).getSchema<T>(schema);
    if (!found) throw new Error(`No schema ${schema} in ${dir}`);
    return found;
  }
  const instance = ajv(dir);
  let byAjv = compiled.get(instance);
  if (!byAjv) compiled.set(instance, (byAjv = new Map()));
  let validate = byAjv.get(schema);
  if (!validate) {
    validate = instance.compile(schema);
    byAjv.set(schema, validate);
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
export function check(schema: string | AnySchema, value: unknown, dir = defaultSchemasDir): ValidationFailure | null {
  const validate = validator(schema, dir);
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
  return async (request: FastifyRequest, reply: FastifyReply) => {
    // The server's own schemas folder (SCHEMAS_DIR), compiled once per folder.
    const validate = validator(schema, request.server.config.schemasDir);
    const raw = request.body;
    if (normalize && typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
      normalize(raw as Record<string, unknown>);
    }
    const body = request.body;
    if (!validate(body)) {
      return reply.code(400).send(toValidationFailure(validate.errors));
    }
  };
}
