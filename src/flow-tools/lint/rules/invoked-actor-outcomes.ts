import { invokesOf } from '../../../domain/flow/model';
import { pathLabel } from '../context';
import type { MeaningRule } from '../rule';

export const invokedActorOutcomes: MeaningRule = {
  name: 'invoked-actor-outcomes',
  description: 'An invoked actor\'s result and failure both lead somewhere (onDone, onError), else the applicant waits on the page for ever.',
  stage: 'meaning',
  check({ nodes }, report) {
    for (const node of nodes) {
      for (const inv of invokesOf(node)) {
        for (const [key, when] of [
          ['onDone', 'when it succeeds'],
          ['onError', 'when it fails'],
        ] as const) {
          if (inv.config[key] === undefined) report(inv.pointer, `the invoked actor "${inv.src}" in ${pathLabel(node)} has no ${key}: ${when}, the applicant would stay on this page for ever; add "${key}": "<state>"`);
        }
      }
    }
  },
};
