import { describe, expect, it } from 'vitest';
import { formatVersionOf, migrateForm, MigrationRefused } from '../../../src/flow-tools/form-format/migrate';

/** npm run forms:migrate: a format 1 file brought to format 2 (src/flow-tools/form-format/migrate.ts). */
const flows = { idOfType: { GENERAL: 'general', CHILD: 'child' } };

const version1 = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'sample.schema.json',
  type: 'object',
  required: ['noMatch'],
  properties: {
    noMatch: { type: 'boolean' },
    postal: { type: 'string', 'x-when': { field: 'noMatch', isNot: true } },
    temp: { type: 'string', 'x-when': { field: 'noMatch', is: true } },
    work: { type: 'string', 'x-when': { for: 'GENERAL' } },
  },
  allOf: [
    {
      if: { required: ['noMatch'], properties: { noMatch: { const: true } } },
      then: { required: ['temp'], properties: { temp: { minLength: 1 } }, errorMessage: { required: { temp: 'required' } } },
      else: { required: ['postal'], errorMessage: { required: { postal: 'searchAddress' } } },
    },
  ],
  'x-step': { post: '/applications/sample', introFor: { CHILD: 'お子さまの' }, notes: { GENERAL: 'ご本人の' }, summary: [{ term: '住所', fields: ['postal'], when: { field: 'noMatch', isNot: true } }] },
  'x-ui': { work: { 'ui:options': { requiredWhen: 'workplaceRequired', requirement: 'required' } } },
  'x-ui-for': { CHILD: { temp: { 'ui:title': 'お子さまの住所' } } },
};

describe('migrateForm', () => {
  it('writes a format 1 form in format 2: one condition language, required while asked, one overlay per flow', () => {
    const { schema, notes } = migrateForm(version1, flows);
    expect(formatVersionOf(schema)).toBe(2);
    expect(schema).toEqual({
      $schema: './format/form.schema.json',
      $id: 'sample.schema.json',
      'x-format': 2,
      type: 'object',
      required: ['noMatch', 'temp', 'postal'],
      properties: {
        noMatch: { type: 'boolean' },
        postal: { type: 'string', 'x-when': { field: 'noMatch', notEquals: true } },
        temp: { type: 'string', 'x-when': { field: 'noMatch', equals: true } },
        work: { type: 'string', 'x-required-when': { condition: 'workplaceRequired' } },
      },
      errorMessage: { required: { temp: 'required', postal: 'searchAddress' } },
      'x-step': { post: '/applications/sample', summary: [{ term: '住所', fields: ['postal'] }] },
      'x-ui': { work: {} },
      'x-flows': {
        child: { properties: { work: { 'x-when': false } }, 'x-ui': { temp: { 'ui:title': 'お子さまの住所' } }, 'x-step': { intro: 'お子さまの' } },
        general: { 'x-step': { note: 'ご本人の' } },
      },
    });
    expect(notes.length).toBeGreaterThan(0);
  });

  it('leaves a file of the current format as it is', () => {
    const { schema } = migrateForm(version1, flows);
    expect(migrateForm(schema, flows).schema).toEqual(schema);
  });

  it('refuses an if/then it cannot read, naming it', () => {
    expect(() => migrateForm({ ...version1, allOf: [{ if: { properties: { a: { minimum: 3 } } }, then: {} }] }, flows)).toThrow(MigrationRefused);
  });
});
