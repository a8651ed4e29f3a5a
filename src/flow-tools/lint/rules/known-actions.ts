import { nodeTransitions, refsOf } from '../../../domain/flow/model';
import { actionNames } from '../../../domain/flow/vocabulary';
import { knownNamesRule } from '../known-names';

export const knownActions = knownNamesRule({
  name: 'known-actions',
  description: 'Entry, exit and transition actions are actions of the vocabulary: XState skips an unknown action silently.',
  kind: 'action',
  known: actionNames,
  namesIn: (node) => [...(['entry', 'exit'] as const).flatMap((key) => refsOf(node.config[key], `${node.pointer}/${key}`)), ...nodeTransitions(node).flatMap((t) => t.actions)],
});
