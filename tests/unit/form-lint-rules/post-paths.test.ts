/** The form lint's rule post-paths: src/flow-tools/form-lint/rules/post-paths.ts. */
import { describe, it } from 'vitest';
import { expectProblems, flowAsking, form, lineOf, lint } from './helpers';

describe('post-paths', () => {
  it('refuses a second form on one path, at the later one by name', () => {
    const second = form(undefined, '/applications/sample');
    expectProblems(lint({ forms: { sample: form(), sample2: second }, flows: [flowAsking('general', [['sample']]), flowAsking('child', [['sample2']])] }), [
      `schemas/sample2.schema.json:${lineOf(second, 'post')} /x-step/post: "/applications/sample" is already the path of form "sample"; give this form its own path`,
    ]);
  });
});
