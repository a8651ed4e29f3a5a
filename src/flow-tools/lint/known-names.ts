/**
 * The shape of the rules that check names against a list of the vocabulary (src/domain/flow/vocabulary.ts):
 * each names the list and where a state writes such names; unknown ones are reported with the
 * known ones and a "Did you mean".
 */
import type { NamedRef, StateNode } from '../../domain/flow/model';
import { isOneOf } from '../../domain/flow/vocabulary';
import type { MeaningRule } from './rule';
import { unknownName } from './words';

export function knownNamesRule(rule: {
  name: string;
  description: string;
  /** As the message says it: `unknown <kind> "x" (known <kind>s: …)`. */
  kind: string;
  known: readonly string[];
  /** The names a state (not the root) writes, with their pointers. */
  namesIn(node: StateNode): NamedRef[];
}): MeaningRule {
  return {
    name: rule.name,
    description: rule.description,
    stage: 'meaning',
    check({ nodes, root }, report) {
      for (const node of nodes) {
        if (node === root) continue;
        for (const ref of rule.namesIn(node)) if (!isOneOf(rule.known, ref.value)) report(ref.pointer, unknownName(rule.kind, ref.value, rule.known));
      }
    },
  };
}
