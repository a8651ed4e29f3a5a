import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FlowConfig } from '../../src/domain/flow/types.js';
import { loadFormCatalogue } from '../../src/server/forms/catalogue.js';
import { requiredFormsOf } from '../../src/server/forms/stored.js';
import { defaultSchemasDir } from '../../src/server/validation.js';
import { spec } from './spec';

/** What the shipped flows make completion wait for (spec section 1, the two flows' steps). */
const read = (name: string) => JSON.parse(readFileSync(new URL(`../../flows/${name}.json`, import.meta.url), 'utf8')) as FlowConfig;
const catalogue = loadFormCatalogue(defaultSchemasDir);

describe('the forms a completed application holds', () => {
  it(spec('§1', 'The general flow: … personal data, occupation and workplace, branch choice, choice about seal registration, confirmation, a 4-digit cash-card PIN'), () => {
    expect(requiredFormsOf(read('general'), catalogue).slice().sort()).toEqual(['branch', 'confirmation', 'personal', 'sealLess', 'workplace']);
  });

  it(spec('§1', 'The child flow: … child personal data, parent data, branch, confirmation, PIN'), () => {
    expect(requiredFormsOf(read('child'), catalogue).slice().sort()).toEqual(['branch', 'confirmation', 'parent', 'parent-workplace', 'personal', 'workplace']);
  });
});
