/** The form lint's rule format-version: src/flow-tools/form-lint/rules/format-version.ts. */
import { describe, it } from 'vitest';
import { expectProblems, form, lineOf, lint } from './helpers';

describe('format-version', () => {
  it('passes a form of format 2 that names the format', () => {
    expectProblems(lint({ forms: { sample: form() } }), []);
  });

  it('refuses a form of format 1 with the command that migrates it, and nothing else of it', () => {
    const old = form((schema) => {
      delete schema['x-format'];
      schema.$schema = 'http://json-schema.org/draft-07/schema#';
      schema.allOf = [];
    });
    expectProblems(lint({ forms: { sample: old } }), [
      'schemas/sample.schema.json:1: this file is written in form format 1 (it has no "x-format": 2); run npm run forms:migrate, which rewrites it in format 2 and says what it changed (docs/forms.md, "Migrating from format 1")',
    ]);
  });

  it('refuses a newer format, and a $schema that is not the format', () => {
    const newer = form((schema) => (schema['x-format'] = 3));
    expectProblems(lint({ forms: { sample: newer } }), [
      `schemas/sample.schema.json:${lineOf(newer, 'x-format')} /x-format: form format 3 is newer than this service reads (format 2): update the service, or write the file in format 2`,
    ]);
    const elsewhere = form((schema) => (schema.$schema = '../form.schema.json'));
    expectProblems(lint({ forms: { sample: elsewhere } }), [
      `schemas/sample.schema.json:${lineOf(elsewhere, '$schema')} /$schema: "$schema" must be "./format/form.schema.json", the form format an editor checks the file against, not "../form.schema.json"`,
    ]);
  });
});
