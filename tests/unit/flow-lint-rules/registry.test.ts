/** The lint's rule registry (src/flow-tools/lint/rules/index.ts) holds each rule module once, each with its own test. */
import { describe, expect, it } from 'vitest';
import { flowLintRules } from '../../../src/flow-tools/lint/rules';
import { expectOneModuleAndTestPerRule } from '../lint-rule-registry';

describe('the flow lint rule registry', () => {
  it('lists every rule module once, by the name of its file, with a description and a test file of its own', () => {
    expectOneModuleAndTestPerRule(flowLintRules, new URL('../../../src/flow-tools/lint/rules/', import.meta.url), new URL('./', import.meta.url));
  });

  it('runs the source rules before the meaning rules', () => {
    const stages = flowLintRules.map((rule) => rule.stage);
    expect(stages.lastIndexOf('source')).toBeLessThan(stages.indexOf('meaning'));
  });
});
