/** The form lint's rule registry (src/flow-tools/form-lint/rules/index.ts) holds each rule module once, each with its own test. */
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formLintRules } from '../../../src/flow-tools/form-lint/rules';

const rulesDir = fileURLToPath(new URL('../../../src/flow-tools/form-lint/rules/', import.meta.url));

describe('the form lint rule registry', () => {
  it('lists every rule module once, by the name of its file, with a description and a test file of its own', () => {
    const files = readdirSync(rulesDir)
      .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
      .map((f) => f.slice(0, -'.ts'.length))
      .sort();
    const names = formLintRules.map((rule) => rule.name);
    expect([...names].sort()).toEqual(files);
    expect(new Set(names).size).toBe(names.length);
    for (const rule of formLintRules) {
      expect(rule.name).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(rule.description.length, rule.name).toBeGreaterThan(20);
      expect(existsSync(new URL(`./${rule.name}.test.ts`, import.meta.url)), `tests/unit/form-lint-rules/${rule.name}.test.ts`).toBe(true);
    }
  });

  it('runs the file rules first, then the form rules, the catalogue rules, and the server\'s last', () => {
    const order = { file: 0, form: 1, catalogue: 2, server: 3 };
    const stages = formLintRules.map((rule) => order[rule.stage]);
    expect(stages).toEqual([...stages].sort((a, b) => a - b));
  });
});
