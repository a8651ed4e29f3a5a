import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FlowConfig } from '../../src/domain/flow/types.js';
import { loadFormCatalogue } from '../../src/server/forms/catalogue.js';
import { missingForms, requiredFormsOf, type StoredFacts } from '../../src/server/forms/stored.js';
import { defaultSchemasDir } from '../../src/server/validation.js';

/** What completion waits for comes from the flows: every form before the PIN. */
/** The engine's test flows (tests/fixtures/flows); the shipped ones are pinned in tests/product/completion-forms.test.ts. */
const read = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/flows/${name}.json`, import.meta.url), 'utf8')) as FlowConfig;

const catalogue = loadFormCatalogue(defaultSchemasDir);

describe('the forms an application must have stored, from its flow', () => {
  it('are the forms of a flow before the PIN', () => {
    expect(requiredFormsOf(read('general'), catalogue).slice().sort()).toEqual(['branch', 'confirmation', 'personal', 'sealLess', 'workplace']);
    expect(requiredFormsOf(read('child'), catalogue).slice().sort()).toEqual(['branch', 'confirmation', 'parent', 'parent-workplace', 'personal', 'workplace']);
  });

  it('follow a flow edit: without the seal-less page, the seal choice is not waited for', () => {
    const general = read('general');
    const { sealLess: _removed, ...states } = general.states;
    expect(requiredFormsOf({ ...general, states }, catalogue)).not.toContain('sealLess');
  });

  it('refuse a flow that asks a form whose answers the server does not store', () => {
    const general = read('general');
    const branch = general.states.branch;
    const edited = { ...general, states: { ...general.states, branch: { ...branch, meta: { ...branch?.meta, form: 'survey' } } } } as FlowConfig;
    expect(() => requiredFormsOf(edited, catalogue)).toThrow(/asks the form\(s\) survey, which the server cannot store: give the schema an "x-step"/);
  });

  it('name the forms whose answers are missing: a document for each form of the engine (the parent page’s two included)', () => {
    const facts: StoredFacts = { documents: new Set(['personal', 'branch', 'parent']) };
    expect(missingForms(['personal', 'workplace', 'branch', 'sealLess', 'confirmation', 'parent', 'parent-workplace'], facts, catalogue)).toEqual([
      'workplace',
      'sealLess',
      'parent-workplace',
    ]);
  });
});
