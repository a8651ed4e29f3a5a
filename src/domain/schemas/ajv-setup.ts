import type { Ajv, Options } from 'ajv';
import ajvErrors from 'ajv-errors';
import { annotationKeywords } from '../forms/format';

/**
 * One ajv configuration for both sides: the browser's precompiled validators and the server's
 * request validation are built with these options, so a body the form accepts is a body the
 * server accepts, with the same Japanese `errorMessage` texts (ajv-errors).
 */
export const ajvOptions: Options = {
  allErrors: true, // ajv-errors needs every error to pick the message for a field
  strict: false, // rjsf and our ui hints live beside the schema keywords
  $data: true,
};

/** ajv-errors, and the engine's annotation keywords (form-step.ts), which validate nothing. */
export function extendAjv(ajv: Ajv): Ajv {
  ajvErrors(ajv);
  ajv.addVocabulary([...annotationKeywords]);
  return ajv;
}

/**
 * ajv's ESM standalone output exports one function per schema `$id`, and an export name must be
 * an identifier; the build and the browser both give a schema this id before compiling/using it.
 */
export function validatorIdOf(schemaName: string): string {
  return `schema_${schemaName.replace(/[^A-Za-z0-9]/g, '_')}`;
}
