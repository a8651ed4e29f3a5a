import { resolveSchemaMessages } from '../schemas/messages';

/**
 * A form file as ajv and rjsf read it, on both sides alike (the build's precompiled validators
 * are found by the schema's content): its message keys resolved to their texts, and without
 * `$schema`, which names the form format's meta-schema for editors, not a JSON Schema draft
 * ajv knows (ajv's default, draft-07, is the format's).
 */
export function resolvedFormSchema<T extends Record<string, unknown>>(file: T, name = 'schema'): T {
  const { $schema: _format, ...schema } = file;
  return resolveSchemaMessages(schema as T, name);
}
