import type { ErrorObject } from 'ajv';
import { conditionKeywords, FORM_FORMAT_VERSION, FORMAT_KEYWORD } from '../../../domain/forms/format';
import { formatVersionOf } from '../../form-format/migrate';
import { schemaProblem } from '../../lint/schema-errors';
import type { FileRule } from '../rule';

/** Errors another rule says better: the version and $schema (format-version), anything inside a condition (condition-shape). */
function saidElsewhere(error: ErrorObject): boolean {
  const path = error.instancePath;
  if (path === `/${FORMAT_KEYWORD}` || path === '/$schema') return true;
  return conditionKeywords.some((keyword) => path.split('/').includes(keyword));
}

/** An alternative of an anyOf (a value of several shapes): the anyOf's own error says it once, with its description. */
function isAlternative(error: ErrorObject, all: readonly ErrorObject[]): boolean {
  return all.some((other) => other !== error && other.keyword === 'anyOf' && error.schemaPath.startsWith(other.schemaPath.replace(/\/anyOf$/, '/anyOf/')));
}

function anyOfMessage(error: ErrorObject): { pointer: string; message: string } {
  const described = (error.parentSchema as { description?: unknown } | undefined)?.description;
  const name = error.instancePath === '' ? 'the file' : `"${error.instancePath.slice(error.instancePath.lastIndexOf('/') + 1)}"`;
  return { pointer: error.instancePath, message: `${name} is not of a shape this keyword takes${typeof described === 'string' ? `: ${described}` : ''}` };
}

export const formFormat: FileRule = {
  name: 'form-format',
  description: 'A form file has the shape of the form format (schemas/format/form.schema.json): only its keywords, anywhere in the file, with values of their types and lists.',
  stage: 'file',
  check(form, { validate }, report) {
    if (formatVersionOf(form.schema) !== FORM_FORMAT_VERSION) return;
    if (validate(form.schema)) return;
    const errors = (validate.errors ?? []).filter((error) => !saidElsewhere(error));
    for (const error of errors) {
      if (isAlternative(error, errors)) continue;
      const problem = error.keyword === 'anyOf' ? anyOfMessage(error) : schemaProblem(error, errors);
      if (problem) report(form, problem.pointer, problem.message);
    }
  },
};
