/** The form lint's rule compiles: src/flow-tools/form-lint/rules/compiles.ts. */
import { describe, expect, it } from 'vitest';
import { lintForms } from '../../../src/flow-tools/form-lint';
import { knownSourceValues } from '../../../src/flow-tools/form-lint/context';
import { form, metaSchema, textOf } from './helpers';

describe('compiles', () => {
  it('reports what the server\'s strict ajv refuses, before the server would refuse to start', () => {
    const problems = lintForms({
      files: [{ name: 'sample', fileName: 'schemas/sample.schema.json', text: textOf(form()) }],
      metaSchema,
      flows: [],
      sourceValues: knownSourceValues([]),
      bankCodes: [],
      columnNames: [],
      compileProblem: (name) => (name === 'sample' ? 'strict mode: unknown format "dat"' : undefined),
    });
    expect(problems.map((p) => `${p.file}:${p.line} ${p.message}`)).toEqual(['schemas/sample.schema.json:1 the schema is not valid JSON Schema for the server (ajv, strict): strict mode: unknown format "dat"']);
  });
});
