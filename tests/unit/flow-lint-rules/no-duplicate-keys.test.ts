/** The flow lint's rule no-duplicate-keys: src/flow-tools/lint/rules/no-duplicate-keys.ts. */
import { describe, expect, it } from 'vitest';
import { lint, broken } from './helpers';

describe('no-duplicate-keys', () => {
  it('reports a key written twice at its second occurrence', () => {
    const lines = broken(() => {}).split('\n');
    const at = lines.findIndex((l) => l.includes('"title": "お客さま情報の入力"'));
    lines.splice(at, 0, '        "title": "x",');
    const problems = lint(lines.join('\n'));
    expect(problems).toEqual([
      expect.objectContaining({ pointer: '/states/personal/meta/title', line: at + 2, message: expect.stringContaining(`key "title" is written twice in the same object (first at line ${at + 1})`) }),
    ]);
  });
});
