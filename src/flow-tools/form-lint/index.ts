/**
 * The form lint: refuses a form file (schemas/<form>.schema.json) the engine could not serve
 * as the product owner meant it, with file, line, JSON pointer, what is wrong and, for a name,
 * the known ones and a "Did you mean". Pure like the flow lint (no fs): the caller reads the
 * files (src/server/flows/check.ts).
 *
 * Order of work: each file is read with positions; the file rules check it as written (the
 * format's version and meta-schema). Only when every file passes them do the form rules read
 * what each form means, and the catalogue rules the forms together and in their flows.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import type { FlowProblem } from '../lint/problem';
import { formFileOf, type FormFile, type FormFileInput, type FormsContext } from './context';
import type { FormReport } from './rule';
import { formFormatOptions, withFormatAnnotations } from '../../domain/forms/format-options';
import { formLintRules } from './rules';

export type { FormFileInput } from './context';

export interface FormLintInput extends Omit<FormsContext, 'forms'> {
  files: FormFileInput[];
  /** The form format's meta-schema (schemas/format/form.schema.json). */
  metaSchema: object;
  /** Its validator made elsewhere (the server's, compiled at build time); else compiled here. */
  validate?: ValidateFunction;
}

const validators = new WeakMap<object, ValidateFunction>();

/** The meta-schema's validator, compiled here when the caller has none made elsewhere (the server's, at build time). */
export function formatValidatorOf(metaSchema: object): ValidateFunction {
  let validate = validators.get(metaSchema);
  if (!validate) {
    validate = withFormatAnnotations(new Ajv(formFormatOptions)).compile(metaSchema);
    validators.set(metaSchema, validate);
  }
  return validate;
}

export function lintForms(input: FormLintInput): FlowProblem[] {
  const problems: FlowProblem[] = [];
  const seen = new Set<string>();
  const report: FormReport = (at, pointer, message) => {
    const key = `${at.fileName}\n${pointer}\n${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    problems.push({ file: at.fileName, pointer, line: at.lineOf(pointer), message });
  };
  const forms: FormFile[] = [];
  for (const file of input.files) {
    const read = formFileOf(file);
    if ('problem' in read) problems.push({ file: file.fileName, pointer: '', line: read.problem.line, message: read.problem.message });
    else forms.push(read);
  }
  const format = { validate: input.validate ?? formatValidatorOf(input.metaSchema) };
  for (const rule of formLintRules) if (rule.stage === 'file') for (const form of forms) rule.check(form, format, report);
  if (problems.length === 0) {
    const context: FormsContext = { ...input, forms };
    for (const rule of formLintRules) if (rule.stage === 'form') for (const form of forms) rule.check(form, context, report);
    for (const rule of formLintRules) if (rule.stage === 'catalogue') rule.check(context, report);
    if (problems.length === 0) for (const rule of formLintRules) if (rule.stage === 'server') for (const form of forms) rule.check(form, context, report);
  }
  return problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.pointer.localeCompare(b.pointer));
}
