import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FlowConfig } from '../../src/domain/flow/types.js';
import { missingForms, requiredFormsByType, type StoredFacts } from '../../src/server/forms/stored.js';

/** What completion waits for comes from the flows: every form before the PIN. */
const read = (name: string) => JSON.parse(readFileSync(new URL(`../../flows/${name}.json`, import.meta.url), 'utf8')) as FlowConfig;

describe('the forms an application must have stored, from its flow', () => {
  it('are the forms of the shipped flows before the PIN', () => {
    const required = requiredFormsByType([read('general'), read('child')]);
    expect(required.get('GENERAL')?.slice().sort()).toEqual(['branch', 'confirmation', 'personal', 'sealLess', 'workplace']);
    expect(required.get('CHILD')?.slice().sort()).toEqual(['branch', 'confirmation', 'parent', 'personal']);
  });

  it('follow a flow edit: without the seal-less page, the seal choice is not waited for', () => {
    const general = read('general');
    const { sealLess: _removed, ...states } = general.states;
    const required = requiredFormsByType([{ ...general, states }]);
    expect(required.get('GENERAL')).not.toContain('sealLess');
  });

  it('refuse a flow that asks a form whose answers the server does not store', () => {
    const general = read('general');
    const branch = general.states.branch;
    const edited = { ...general, states: { ...general.states, branch: { ...branch, meta: { ...branch?.meta, form: 'survey' } } } } as FlowConfig;
    expect(() => requiredFormsByType([edited])).toThrow(/asks the form\(s\) survey/);
  });

  it('name the forms whose answers are missing', () => {
    const facts: StoredFacts = { birthday: '1990-01-15', occupationId: null, branchCode: '001', sealLess: null, parent: { occupationId: null } };
    expect(missingForms(['personal', 'workplace', 'branch', 'sealLess', 'confirmation', 'parent'], facts)).toEqual(['workplace', 'sealLess', 'parent']);
  });
});
