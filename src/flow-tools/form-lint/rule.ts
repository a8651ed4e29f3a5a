import type { ValidateFunction } from 'ajv';
import type { FormFile, FormsContext } from './context';

/** A file a problem is reported in: a form's, or a flow's. */
export interface Located {
  fileName: string;
  lineOf(pointer: string): number;
}

/** Adds a problem at a JSON pointer of a file; its line is the pointer's. */
export type FormReport = (at: Located, pointer: string, message: string) => void;

interface RuleInfo {
  /** kebab-case, as the file name in rules/ and the test in tests/unit/form-lint-rules/. */
  name: string;
  /** What the rule refuses and why, in one sentence. */
  description: string;
}

/** A rule on one file as written: it runs on any form file that is JSON. */
export interface FileRule extends RuleInfo {
  stage: 'file';
  check(form: FormFile, format: { validate: ValidateFunction }, report: FormReport): void;
}

/** A rule on what one form means: it runs once no file rule found anything in any form. */
export interface FormRule extends RuleInfo {
  stage: 'form';
  check(form: FormFile, context: FormsContext, report: FormReport): void;
}

/** A rule on the forms together, or on the forms as the flows ask them (those wait for the flows to pass their own lint). */
export interface CatalogueRule extends RuleInfo {
  stage: 'catalogue';
  check(context: FormsContext, report: FormReport): void;
}

/** A rule on what the server would make of a form the other rules found nothing in (its strict ajv): it runs last, and only then. */
export interface ServerRule extends RuleInfo {
  stage: 'server';
  check(form: FormFile, context: FormsContext, report: FormReport): void;
}

export type FormLintRule = FileRule | FormRule | CatalogueRule | ServerRule;
