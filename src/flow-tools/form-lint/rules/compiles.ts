import type { ServerRule } from '../rule';

export const compiles: ServerRule = {
  name: 'compiles',
  description: 'The server\'s ajv, in strict mode, compiles the form\'s schema: what it refuses would stop the server from starting.',
  stage: 'server',
  check(form, context, report) {
    const problem = context.compileProblem?.(form.name);
    if (problem !== undefined) report(form, '', `the schema is not valid JSON Schema for the server (ajv, strict): ${problem}`);
  },
};
