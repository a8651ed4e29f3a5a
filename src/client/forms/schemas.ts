import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import { createPrecompiledValidator, type ValidatorFunctions } from '@rjsf/validator-ajv8';
import { validatorIdOf } from '../../domain/schemas/ajv-setup';
import { resolveSchemaMessages } from '../../domain/schemas/messages';

/**
 * Schemas come from schemas/ (shared with the server), their message keys resolved from the
 * one catalogue; their validators were precompiled at build time by
 * src/cli/compile-validators.ts, so the browser never compiles code at run time.
 */
const schemaModules = import.meta.glob<RJSFSchema>('../../../schemas/*.schema.json', { import: 'default' });
const validatorModules = import.meta.glob<ValidatorFunctions>('../generated/validators/*.js', { import: 'default' });

export interface LoadedSchema {
  schema: RJSFSchema;
  validator: ValidatorType<Record<string, unknown>, RJSFSchema>;
}

const cache = new Map<string, Promise<LoadedSchema>>();

export function loadSchema(name: string): Promise<LoadedSchema> {
  const hit = cache.get(name);
  if (hit) return hit;
  const loadSchemaModule = schemaModules[`../../../schemas/${name}.schema.json`];
  const loadValidatorModule = validatorModules[`../generated/validators/${name}.js`];
  if (!loadSchemaModule || !loadValidatorModule) return Promise.reject(new Error(`no schema or validator named ${name}`));
  const loading = Promise.all([loadSchemaModule(), loadValidatorModule()]).then(([fileSchema, validateFns]) => {
    // Resolved exactly as the build resolved it: the validator is found by the schema's hash.
    const schema = { ...resolveSchemaMessages(fileSchema, name), $id: validatorIdOf(name) };
    return { schema, validator: createPrecompiledValidator<Record<string, unknown>, RJSFSchema>(validateFns, schema) };
  });
  cache.set(name, loading);
  return loading;
}
