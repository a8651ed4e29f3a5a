import type { FieldError } from '../../src/domain/rules/field-error';
import type { FormRuleContext } from '../../src/domain/rules/registry';
import { normalizeAnswers } from '../../src/domain/forms/answers';
import { judgeAnswers } from '../../src/domain/forms/field-states';
import { formFor } from '../../src/domain/forms/flow-forms';
import { formStepOf, type FormSchema } from '../../src/domain/forms/format';
import { defaultSchemasDir, readSchemas, toValidationFailure, validator } from '../../src/server/validation';

/**
 * A form of a schemas folder (default the shipped one) judged as the server's form-step handler
 * judges a post, but for what the server derives from its database (the searched address, an
 * applied workplace: give those in the answers): normalised, the conditions, the schema, the rules.
 */
export function judgeForm(form: string, raw: Record<string, unknown>, context: FormRuleContext, flowId: string, dir = defaultSchemasDir): FieldError[] {
  const schema = readSchemas(dir).get(form) as FormSchema | undefined;
  if (!schema) throw new Error(`no form ${form} in ${dir}`);
  const asked = formFor(schema, flowId);
  const validate = validator(`${form}.schema.json`, dir);
  const fields = schema.properties ?? {};
  const own = (answers: Record<string, unknown>) => Object.fromEntries(Object.entries(answers).filter(([field]) => Object.hasOwn(fields, field)));
  const schemaErrors = (answers: Record<string, unknown>) => (validate(own(answers)) ? [] : toValidationFailure(validate.errors).errors);
  return judgeAnswers(asked, formStepOf(asked)?.rules ?? [], { ...normalizeAnswers(asked, raw), ...beside(schema, raw) }, context, schemaErrors).errors;
}

/** What the answers hold beside the form's fields (what the server derived: the address's prefecture, a workplace's facts). */
function beside(schema: FormSchema, raw: Record<string, unknown>): Record<string, unknown> {
  const fields = schema.properties ?? {};
  return Object.fromEntries(Object.entries(raw).filter(([field, value]) => !Object.hasOwn(fields, field) && value !== null && value !== undefined));
}
