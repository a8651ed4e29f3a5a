import { nodeTransitions } from '../../../domain/flow/model';
import { guardNames, isOneOf } from '../../../domain/flow/vocabulary';
import type { MeaningRule } from '../rule';
import { unknownName } from '../words';

export const knownGuards: MeaningRule = {
  name: 'known-guards',
  description: 'A transition\'s guard is a guard of the vocabulary: XState throws on an unknown one only when it is taken.',
  stage: 'meaning',
  check({ nodes, root }, report) {
    for (const node of nodes) {
      if (node === root) continue;
      for (const { guard } of nodeTransitions(node)) {
        if (guard && !isOneOf(guardNames, guard.value)) report(guard.pointer, unknownName('guard', guard.value, guardNames));
      }
    }
  },
};
