import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import { createPrecompiledValidator, type ValidatorFunctions } from '@rjsf/validator-ajv8';
import { validatorIdOf } from '../../domain/schemas/ajv-setup';
import { resolvedFormSchema } from '../../domain/forms/resolve';

/**
 * Schemas come from schemas/ (shared with the server; vite's alias @schemas, SCHEMAS_DIR when
 * set), their message keys resolved from the one catalogue; their validators were precompiled
 * at build time by src/cli/compile-validators.ts (alias @validators, VALIDATORS_DIR), so the
 * browser never compiles code at run time.
 */
const schemaModules = byName(import.meta.glob<RJSFSchema>('@schemas/*.schema.json', { import: 'default' }), '.schema.json');
const validatorModules = byName(import.meta.glob<ValidatorFunctions>('@validators/*.js', { import: 'default' }), '.js');

/** Glob results keyed by file name without its ending (the keys' folder part depends on the alias). */
function byName<T>(modules: Record<string, () => Promise<T>>, ending: string): Map<string, () => Promise<T>> {
  return new Map(
    Object.entries(modules).map(([path, load]) => {
      const file = path.slice(path.lastIndexOf('/') + 1);
      return [file.slice(0, file.length - ending.length), load];
    }),
  );
}

export interface LoadedSchema {
  schema: RJSFSchema;
  validator: ValidatorType<Record<string, unknown>, RJSFSchema>;
}

const cache = new Map<string, Promise<LoadedSchema>>();

export function loadSchema(name: string): Promise<LoadedSchema> {
  const hit = cache.get(name);
  if (hit) return hit;
  const loadSchemaModule = schemaModules.get(name);
  const loadValidatorModule = validatorModules.get(name);
  if (!loadSchemaModule || !loadValidatorModule) return Promise.reject(new Error(`no schema or validator named ${name}`));
  const loading = Promise.all([loadSchemaModule(), loadValidatorModule()]).then(([fileSchema, validateFns]) => {
    // Resolved exactly as the build resolved it: the validator is found by the schema's hash.
    const schema = { ...resolvedFormSchema(fileSchema as Record<string, unknown>, name), $id: validatorIdOf(name) };
    return { schema, validator: createPrecompiledValidator<Record<string, unknown>, RJSFSchema>(validateFns, schema) };
  });
  cache.set(name, loading);
  return loading;
}
