import type { SourceRule } from '../rule';

export const noDuplicateKeys: SourceRule = {
  name: 'no-duplicate-keys',
  description: 'A key written twice in one object: JSON keeps only the last one, so the first is silently lost.',
  stage: 'source',
  check({ source }, report) {
    for (const d of source.duplicates) {
      report(d.pointer, `key "${d.key}" is written twice in the same object (first at line ${d.firstLine}); JSON keeps only the last one`, d.line);
    }
  },
};
