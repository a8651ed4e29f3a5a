import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { repositoryRoot } from './paths.js';
import { formFormatOptions, withFormatAnnotations } from '../domain/forms/format-options.js';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM (as in masterdata/load.ts).
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as typeof addFormatsModule;

/**
 * The JSON Schemas the start checks validate with (the bank registry, the form keywords, the
 * landing checklists here; the flow lint's in flows/check.ts, its options being the lint's; the
 * forms' in validation.ts; the master data's in masterdata/load.ts): each one's ajv options in
 * one place, so the build and the server compile it alike. Compiling them with ajv at every
 * start cost a few hundred ms of CPU (issue 13, ADR 0038); `npm run build` (src/cli/compile-validators.ts, beside the browser's
 * form validators) writes each as ajv's standalone code to dist/validators/<name>.cjs, stamped
 * with a fingerprint of the schema and the options it was compiled from. A start takes that
 * code only when the fingerprint matches the schema it has just read; a schema edited after the
 * build (or no build) is compiled here as before, so its errors, and a schema ajv refuses, read
 * the same either way.
 */
export interface StartSchema {
  /** The generated file's base name. */
  name: string;
  options: Options;
  /** ajv-formats' formats (its standalone code requires them from ajv-formats). */
  formats?: boolean;
  /** Keywords added to the ajv (the forms' ajv-errors); a change of them needs a build. */
  extend?: (ajv: Ajv) => Ajv;
}

export const startSchemas = {
  // allErrors so one run lists every broken field; verbose so enum errors can quote the bad value.
  bank: { name: 'bank', options: { allErrors: true, strict: true, verbose: true }, formats: true },
  formFormat: { name: 'form-format', options: formFormatOptions, extend: withFormatAnnotations },
  checklist: { name: 'checklist', options: { allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true } },
} satisfies Record<string, StartSchema>;

/** Where the build writes the standalone validators (outside src/: build output, not in git). */
export const startValidatorsDir = path.join(repositoryRoot, 'dist', 'validators');

/** Of one schema, or of several by id (compiled in one ajv, where they $ref each other). */
function fingerprint(spec: StartSchema, schema: object): string {
  return createHash('sha256').update(JSON.stringify({ options: spec.options, formats: spec.formats === true, schema })).digest('hex');
}

/** An ajv with the options, formats and keywords of `spec` (and ajv's `code` options for the build). */
export function newAjv(spec: StartSchema, code?: Options['code']): Ajv {
  const ajv = new Ajv(code === undefined ? spec.options : { ...spec.options, code });
  if (spec.formats) addFormats(ajv);
  return spec.extend ? spec.extend(ajv) : ajv;
}

const require = createRequire(import.meta.url);

type BuiltModule = Record<string, unknown> & { fingerprint?: unknown; default?: unknown };

/** The build's module of `spec` when it was compiled from this very schema (or schemas), else undefined. */
function built(spec: StartSchema, schema: object): BuiltModule | undefined {
  let module: BuiltModule;
  try {
    module = require(path.join(startValidatorsDir, `${spec.name}.cjs`)) as BuiltModule;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
  return module.fingerprint === fingerprint(spec, schema) ? module : undefined;
}

/** A validator of `schema` with the options of `spec`: the build's, or compiled now (throws what ajv throws). */
export function startValidator<T = unknown>(spec: StartSchema, schema: object): ValidateFunction<T> {
  const validate = built(spec, schema)?.default;
  return typeof validate === 'function' ? (validate as ValidateFunction<T>) : newAjv(spec).compile<T>(schema);
}

/**
 * The build's validators of several schemas compiled in one ajv (`byId` as the server adds
 * them), one per ref of `refs` (default: each schema's id), when built from these very schemas;
 * else undefined (the caller compiles them).
 */
export function builtValidators(spec: StartSchema, byId: Record<string, object>, refs = Object.keys(byId)): Record<string, ValidateFunction> | undefined {
  const module = built(spec, byId);
  if (module === undefined) return undefined;
  const validators: Record<string, ValidateFunction> = {};
  for (const ref of refs) {
    const validate = module[ref];
    if (typeof validate !== 'function') return undefined;
    validators[ref] = validate as ValidateFunction;
  }
  return validators;
}

/** builtValidators, or compiled now: a ref the schemas lack is missing from the answer. */
export function startValidators(spec: StartSchema, byId: Record<string, object>, refs: string[]): Record<string, ValidateFunction | undefined> {
  const found = builtValidators(spec, byId, refs);
  if (found) return found;
  const ajv = newAjv(spec);
  for (const [id, schema] of Object.entries(byId)) ajv.addSchema(schema, id);
  return Object.fromEntries(refs.map((ref) => [ref, ajv.getSchema(ref)]));
}

/** The build step: the CommonJS module of `schema`'s standalone validator, with its fingerprint. */
export function startValidatorCode(spec: StartSchema, schema: object): string {
  const ajv = newAjv(spec, { source: true, lines: false });
  const code = standaloneCode(ajv, ajv.compile(schema));
  return `${code}\nmodule.exports.fingerprint = ${JSON.stringify(fingerprint(spec, schema))};\n`;
}

/** The build step for builtValidators: one module exporting the validator of each ref under its name. */
export function startValidatorsCode(spec: StartSchema, byId: Record<string, object>, refs = Object.keys(byId)): string {
  const ajv = newAjv(spec, { source: true, lines: false });
  for (const [id, schema] of Object.entries(byId)) ajv.addSchema(schema, id);
  const code = standaloneCode(ajv, Object.fromEntries(refs.map((ref) => [ref, ref])));
  return `${code}\nmodule.exports.fingerprint = ${JSON.stringify(fingerprint(spec, byId))};\n`;
}
