import { invokesOf } from '../../../domain/flow/model';
import { actorNames, isOneOf } from '../../../domain/flow/vocabulary';
import type { MeaningRule } from '../rule';
import { unknownName } from '../words';

export const knownActors: MeaningRule = {
  name: 'known-actors',
  description: 'An invoked actor ("invoke.src") is an actor of the vocabulary.',
  stage: 'meaning',
  check({ nodes, root }, report) {
    for (const node of nodes) {
      if (node === root) continue;
      for (const inv of invokesOf(node)) {
        if (!isOneOf(actorNames, inv.src)) report(`${inv.pointer}/src`, unknownName('actor', inv.src, actorNames));
      }
    }
  },
};
