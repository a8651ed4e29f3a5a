/**
 * The harness of the form lint's rule tests (one file per rule in this folder): small forms of
 * the tests' own, written out as a product owner writes a file (pretty-printed JSON), linted
 * with the product's form format and, for the rules about forms in flows, with small flows of
 * the tests' own. Nothing here reads the shipped forms or flows: an edit of schemas/ or flows/
 * cannot change what these tests expect.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { lintForms } from '../../../src/flow-tools/form-lint';
import { flowUseOf, knownSourceValues } from '../../../src/flow-tools/form-lint/context';
import { formatProblem, type FlowProblem } from '../../../src/flow-tools/lint';
import type { FlowConfig } from '../../../src/domain/flow/types';

export const metaSchema = JSON.parse(readFileSync(new URL('../../../schemas/format/form.schema.json', import.meta.url), 'utf8')) as object;

// Test data shaped as a product owner may break it, loosely typed on purpose.
export type Loose = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- deliberately malformed test data

/** A valid form step of format 2 with a three-option question and a text; `edit` changes it. */
export function form(edit: (schema: Loose) => void = () => undefined, post = '/applications/sample'): Loose {
  const schema: Loose = {
    $schema: './format/form.schema.json',
    'x-format': 2,
    title: 'お取引の目的',
    type: 'object',
    required: ['kind'],
    properties: {
      kind: { type: 'string', title: '主なお取引', oneOf: [{ const: 'A', title: 'あ' }, { const: 'B', title: 'い' }, { const: 'C', title: 'う' }], errorMessage: 'selectRequired' },
      detail: { type: 'string', title: '詳細', maxLength: 30, 'x-when': { field: 'kind', oneOf: ['A', 'B'] } },
      purposes: { type: 'array', title: '目的', items: { type: 'string' }, 'x-options': { source: 'purposes' } },
    },
    'x-step': { post },
    'x-ui': { 'ui:order': ['kind', 'detail', '*'] },
  };
  edit(schema);
  return schema;
}

/** A flow of the tests' own: the e-mail check, then one page per entry of `pages` (its forms), then the PIN. */
export function flowAsking(id: string, pages: string[][], screen = 'FormStep'): FlowConfig {
  const states: Loose = {
    verification: { meta: { path: '/v', screen: 'Verification' }, on: { NEXT: 'page0' } },
  };
  pages.forEach((forms, index) => {
    states[`page${index}`] = {
      meta: { path: `/p${index}`, screen, form: forms.length === 1 ? forms[0] : forms },
      on: { NEXT: index + 1 < pages.length ? `page${index + 1}` : 'pin' },
    };
  });
  states.pin = { meta: { path: '/pin', screen: 'Pin', form: 'pin' }, on: { NEXT: 'done' } };
  states.done = { type: 'final', meta: { path: '/done', screen: 'Complete' } };
  return { id, meta: { applicationType: 'GENERAL', totalSteps: 1, landing: 'verification', errorState: 'done' }, initial: 'verification', states } as unknown as FlowConfig;
}

/** The text of a form file as a product owner keeps it. */
export const textOf = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export interface LintCase {
  forms: Record<string, Loose>;
  flows?: FlowConfig[];
}

/** The problems of linting the forms (and flows), as `file:line pointer: message`. */
export function lint({ forms, flows = [flowAsking('general', Object.keys(forms).map((name) => [name]))] }: LintCase): string[] {
  const problems: FlowProblem[] = lintForms({
    files: Object.entries(forms).map(([name, schema]) => ({ name, fileName: `schemas/${name}.schema.json`, text: textOf(schema) })),
    metaSchema,
    flows: flows.map((flow) => flowUseOf(`flows/${flow.id}.json`, textOf(flow), flow)),
    sourceValues: knownSourceValues(['LIVING', 'OTHER']),
    bankCodes: ['0177', '0587', '0181'],
    columnNames: ['mailAddress', 'bankCode'],
  });
  return problems.map(formatProblem);
}

/** The line of a pointer in a form as textOf writes it, found independently of the lint: by its key. */
export function lineOf(schema: unknown, key: string, occurrence = 1): number {
  const lines = textOf(schema).split('\n');
  const found = lines.flatMap((line, index) => (line.trimStart().startsWith(`"${key}"`) ? [index + 1] : []));
  const line = found[occurrence - 1];
  expect(line, `"${key}" (${occurrence}) in the form`).toBeDefined();
  return line ?? 0;
}

/** Exactly these problems. */
export function expectProblems(found: string[], expected: Array<string | RegExp>): void {
  expect(found, found.join('\n')).toHaveLength(expected.length);
  expected.forEach((want, index) => (typeof want === 'string' ? expect(found[index]).toBe(want) : expect(found[index]).toMatch(want)));
}
