/** The form lint's rule registry (src/flow-tools/form-lint/rules/index.ts) holds each rule module once, each with its own test. */
import { describe, expect, it } from 'vitest';
import { formLintRules } from '../../../src/flow-tools/form-lint/rules';
import { expectOneModuleAndTestPerRule } from '../lint-rule-registry';

describe('the form lint rule registry', () => {
  it('lists every rule module once, by the name of its file, with a description and a test file of its own', () => {
    expectOneModuleAndTestPerRule(formLintRules, new URL('../../../src/flow-tools/form-lint/rules/', import.meta.url), new URL('./', import.meta.url));
  });

  it('runs the file rules first, then the form rules, the catalogue rules, and the server\'s last', () => {
    const order = { file: 0, form: 1, catalogue: 2, server: 3 };
    const stages = formLintRules.map((rule) => order[rule.stage]);
    expect(stages).toEqual([...stages].sort((a, b) => a - b));
  });
});
