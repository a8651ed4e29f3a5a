import { formStepOf, type FormSchema, type FormStepDeclaration } from '../../domain/forms/format.js';
import { readSchemas } from '../validation.js';

/**
 * The forms of SCHEMAS_DIR as the server reads them: each schema (message keys resolved) and,
 * for a form step of the generic engine, its x-step declaration. One catalogue per server,
 * read at start (plugins/forms.ts).
 */
export interface FormDefinition {
  name: string;
  schema: FormSchema;
  /** The generic engine's declaration; undefined for a form its own route accepts. */
  step: FormStepDeclaration | undefined;
}

export type FormCatalogue = ReadonlyMap<string, FormDefinition>;

export function loadFormCatalogue(schemasDir: string): FormCatalogue {
  const catalogue = new Map<string, FormDefinition>();
  for (const [name, schema] of readSchemas(schemasDir)) {
    catalogue.set(name, { name, schema: schema as FormSchema, step: formStepOf(schema as FormSchema) });
  }
  return catalogue;
}

/** The generic engine's forms: those whose schema declares x-step. */
export function formSteps(catalogue: FormCatalogue): FormDefinition[] {
  return [...catalogue.values()].filter((form) => form.step !== undefined);
}

/** A form's schema by name; throws for a name SCHEMAS_DIR does not have (a route's own form is always there). */
export function formSchemaOf(catalogue: FormCatalogue, name: string): FormSchema {
  const form = catalogue.get(name);
  if (!form) throw new Error(`schemas/${name}.schema.json is not in SCHEMAS_DIR`);
  return form.schema;
}
