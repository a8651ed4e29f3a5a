import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FlowConfig } from '../../src/domain/flow/types.js';
import { canonicalJson, flowVersionOf, isFlowVersion } from '../../src/server/flows/version.js';
import { withoutStep } from '../model/remove-steps.js';

const general = JSON.parse(readFileSync(new URL('../../flows/general.json', import.meta.url), 'utf8')) as FlowConfig;

/** The same object with the keys of every object in reverse order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).reverse().map(([key, member]) => [key, reversedKeys(member)]));
  return value;
}

describe('the version of a flow', () => {
  it('is a hex SHA-256 of what the flow says, whatever the layout or the order of keys', () => {
    const version = flowVersionOf(general);
    expect(isFlowVersion(version)).toBe(true);
    expect(flowVersionOf(JSON.parse(JSON.stringify(general, null, 4)) as FlowConfig)).toBe(version);
    expect(flowVersionOf(reversedKeys(general) as FlowConfig)).toBe(version);
  });

  it('changes with any edit: a step removed, a title, the order of a list', () => {
    const version = flowVersionOf(general);
    expect(flowVersionOf(withoutStep(general, 'sealLess'))).not.toBe(version);
    const retitled = structuredClone(general);
    if (retitled.states.branch?.meta) retitled.states.branch.meta.title = 'お取引店';
    expect(flowVersionOf(retitled)).not.toBe(version);
    expect(canonicalJson({ on: [{ guard: 'a' }, { guard: 'b' }] })).not.toBe(canonicalJson({ on: [{ guard: 'b' }, { guard: 'a' }] }));
  });

  it('is told from other text by its form', () => {
    expect(isFlowVersion('0'.repeat(64))).toBe(true);
    for (const value of ['0'.repeat(63), 'A'.repeat(64), `${'0'.repeat(63)}g`, 42, null]) expect(isFlowVersion(value)).toBe(false);
  });
});
