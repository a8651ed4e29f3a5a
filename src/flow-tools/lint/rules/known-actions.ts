import { nodeTransitions, refsOf } from '../../../domain/flow/model';
import { actionNames, isOneOf } from '../../../domain/flow/vocabulary';
import type { MeaningRule } from '../rule';
import { unknownName } from '../words';

export const knownActions: MeaningRule = {
  name: 'known-actions',
  description: 'Entry, exit and transition actions are actions of the vocabulary: XState skips an unknown action silently.',
  stage: 'meaning',
  check({ nodes, root }, report) {
    for (const node of nodes) {
      if (node === root) continue;
      const refs = [...(['entry', 'exit'] as const).flatMap((key) => refsOf(node.config[key], `${node.pointer}/${key}`)), ...nodeTransitions(node).flatMap((t) => t.actions)];
      for (const ref of refs) if (!isOneOf(actionNames, ref.value)) report(ref.pointer, unknownName('action', ref.value, actionNames));
    }
  },
};
