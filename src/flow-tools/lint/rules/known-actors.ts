import { invokesOf } from '../../../domain/flow/model';
import { actorNames } from '../../../domain/flow/vocabulary';
import { knownNamesRule } from '../known-names';

export const knownActors = knownNamesRule({
  name: 'known-actors',
  description: 'An invoked actor ("invoke.src") is an actor of the vocabulary.',
  kind: 'actor',
  known: actorNames,
  namesIn: (node) => invokesOf(node).map((inv) => ({ value: inv.src, pointer: `${inv.pointer}/src` })),
});
