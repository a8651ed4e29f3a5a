import { nodeTransitions } from '../../../domain/flow/model';
import { guardNames } from '../../../domain/flow/vocabulary';
import { knownNamesRule } from '../known-names';

export const knownGuards = knownNamesRule({
  name: 'known-guards',
  description: "A transition's guard is a guard of the vocabulary: XState throws on an unknown one only when it is taken.",
  kind: 'guard',
  known: guardNames,
  namesIn: (node) => nodeTransitions(node).flatMap((t) => (t.guard ? [t.guard] : [])),
});
