/** What both lints' rule registries promise: each rule module once, by its file's name, described, with a test of its own. */
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

interface RegisteredRule {
  name: string;
  description: string;
}

/** `rulesDir`: the folder of the rule modules; `testsDir`: the folder of their tests (both as URLs of folders). */
export function expectOneModuleAndTestPerRule(rules: readonly RegisteredRule[], rulesDir: URL, testsDir: URL): void {
  const files = readdirSync(fileURLToPath(rulesDir))
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
    .map((f) => f.slice(0, -'.ts'.length))
    .sort();
  const names = rules.map((rule) => rule.name);
  expect([...names].sort()).toEqual(files);
  expect(new Set(names).size).toBe(names.length);
  for (const rule of rules) {
    expect(rule.name).toMatch(/^[a-z]+(-[a-z]+)*$/);
    expect(rule.description.length, rule.name).toBeGreaterThan(20);
    const test = new URL(`./${rule.name}.test.ts`, testsDir);
    expect(existsSync(test), fileURLToPath(test)).toBe(true);
  }
}
