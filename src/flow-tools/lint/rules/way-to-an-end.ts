import { nodeTransitions, type StateNode } from '../../../domain/flow/model';
import { activeWith, pathLabel } from '../context';
import type { MeaningRule } from '../rule';
import { enteredLeaves } from '../../statechart';
import { quoteList } from '../words';

/**
 * From every reachable state some way must lead to a final state or to a hand-over state; else the
 * applicant can only go round in circles. Dead ends (no-dead-ends) count as ways out here, not to
 * report them twice.
 */
export const wayToAnEnd: MeaningRule = {
  name: 'way-to-an-end',
  description: 'From every reachable state some way leads to a final state or to the identity provider: no circle the applicant cannot leave.',
  stage: 'meaning',
  check({ graphComplete, root, leaves, resolved, handOvers, deadEnds, reachable }, report) {
    if (!graphComplete) return;
    const targetAt = new Map([...resolved].map(([t, target]) => [t.pointer, target]));
    const successors = new Map(
      leaves.map((leaf) => [
        leaf,
        activeWith(root, leaf)
          .flatMap(nodeTransitions)
          .flatMap((t) => {
            const target = targetAt.get(t.pointer);
            return target ? enteredLeaves(target) : [];
          }),
      ]),
    );
    const finishes = new Set(leaves.filter((l) => l.config.type === 'final' || handOvers.has(l) || deadEnds.has(l)));
    for (let changed = true; changed; ) {
      changed = false;
      for (const leaf of leaves) {
        if (!finishes.has(leaf) && (successors.get(leaf) ?? []).some((s) => finishes.has(s))) {
          finishes.add(leaf);
          changed = true;
        }
      }
    }
    for (const leaf of leaves) {
      if (finishes.has(leaf) || !reachable.has(leaf)) continue;
      const circle = new Set<StateNode>();
      const visit = (n: StateNode) => {
        for (const s of successors.get(n) ?? []) {
          if (circle.has(s)) continue;
          circle.add(s);
          visit(s);
        }
      };
      visit(leaf);
      report(
        leaf.pointer,
        `state ${pathLabel(leaf)} is a dead end: no way from it leads to a final state or to the identity provider` +
          ` (it only leads to ${quoteList([...circle].map(pathLabel)) || 'itself'}); add a transition out of the circle`,
      );
    }
  },
};
