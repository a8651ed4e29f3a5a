import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Every integer a request may carry is bounded by the range of the PostgreSQL integer column
 * it lands in, so an out-of-range number is refused by the schema with a 400 (issue 10: a
 * workplaceId of 2147483648 or 1e308 used to reach the database and answer 500).
 */
const INT4_MIN = -(2 ** 31);
const INT4_MAX = 2 ** 31 - 1;
const dir = new URL('../../schemas/', import.meta.url);

function integerNodes(node: unknown, pointer: string, found: { pointer: string; node: Record<string, unknown> }[]) {
  if (Array.isArray(node)) node.forEach((item, i) => integerNodes(item, `${pointer}/${i}`, found));
  else if (typeof node === 'object' && node !== null) {
    const record = node as Record<string, unknown>;
    const type = record.type;
    if (type === 'integer' || type === 'number' || (Array.isArray(type) && (type.includes('integer') || type.includes('number')))) {
      found.push({ pointer, node: record });
    }
    for (const [key, value] of Object.entries(record)) integerNodes(value, `${pointer}/${key}`, found);
  }
  return found;
}

describe('schemas bound every number by its column', () => {
  const files = readdirSync(dir).filter((name) => name.endsWith('.schema.json'));
  const nodes = files.flatMap((file) =>
    integerNodes(JSON.parse(readFileSync(new URL(file, dir), 'utf8')), file, []).map((entry) => ({ file, ...entry })),
  );

  it('finds the numeric fields', () => {
    expect(nodes.map((entry) => entry.pointer)).toEqual(
      expect.arrayContaining([expect.stringContaining('workplaceId'), expect.stringContaining('occupationId')]),
    );
  });

  it.each(nodes.map((entry) => [entry.pointer, entry.node] as const))('%s is an integer within int4', (_pointer, node) => {
    expect(node.type === 'integer' || (Array.isArray(node.type) && !node.type.includes('number'))).toBe(true);
    expect(typeof node.minimum).toBe('number');
    expect(typeof node.maximum).toBe('number');
    expect(node.minimum as number).toBeGreaterThanOrEqual(INT4_MIN);
    expect(node.maximum as number).toBeLessThanOrEqual(INT4_MAX);
  });
});
