import { formStepOf } from '../../../domain/forms/format';
import type { CatalogueRule } from '../rule';

export const postPaths: CatalogueRule = {
  name: 'post-paths',
  description: 'Each form step is posted to a path of its own (x-step.post): a second form on the same path could never be reached.',
  stage: 'catalogue',
  check({ forms }, report) {
    const seen = new Map<string, string>();
    for (const form of [...forms].sort((a, b) => a.name.localeCompare(b.name))) {
      const post = formStepOf(form.schema)?.post;
      if (post === undefined) continue;
      const first = seen.get(post);
      if (first === undefined) seen.set(post, form.name);
      else report(form, '/x-step/post', `"${post}" is already the path of form "${first}"; give this form its own path`);
    }
  },
};
