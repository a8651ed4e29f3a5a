/** The lint's rule registry (src/flow-tools/lint/rules/index.ts) holds each rule module once, each with its own test. */
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { flowLintRules } from '../../../src/flow-tools/lint/rules';

const rulesDir = fileURLToPath(new URL('../../../src/flow-tools/lint/rules/', import.meta.url));

describe('the flow lint rule registry', () => {
  it('lists every rule module once, by the name of its file, with a description and a test file of its own', () => {
    const files = readdirSync(rulesDir)
      .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
      .map((f) => f.slice(0, -'.ts'.length))
      .sort();
    const names = flowLintRules.map((rule) => rule.name);
    expect([...names].sort()).toEqual(files);
    expect(new Set(names).size).toBe(names.length);
    for (const rule of flowLintRules) {
      expect(rule.name).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(rule.description.length, rule.name).toBeGreaterThan(20);
      expect(existsSync(new URL(`./${rule.name}.test.ts`, import.meta.url)), `tests/unit/flow-lint-rules/${rule.name}.test.ts`).toBe(true);
    }
  });

  it('runs the source rules before the meaning rules', () => {
    const stages = flowLintRules.map((rule) => rule.stage);
    expect(stages.lastIndexOf('source')).toBeLessThan(stages.indexOf('meaning'));
  });
});
