/**
 * The statechart analysis the flow tools share: what a flow means beyond its tree. The tree itself
 * (states, transitions, targets resolved as XState resolves them) is read by the domain's one
 * reader, src/domain/flow/model.ts, the same reading the runtime and the navigation guard use;
 * the lint (what is wrong), the diagram (what is there) and the generated journeys (tests/model)
 * add to it only what this module derives, so they never disagree about a flow.
 *
 * Pure (no fs, no node APIs).
 */
import { allNodes, invokesOf, isPage, metaOf, type StateNode, type Transition } from '../domain/flow/model';
import { HAND_OVER_ACTION, PROVIDER_RETURN_ACTOR } from '../domain/flow/vocabulary';

/** The atomic states XState is in after entering `node`: its initial chain (every region of a parallel state). */
export function enteredLeaves(node: StateNode): StateNode[] {
  if (node.children.size === 0) return [node];
  if (node.config.type === 'parallel') return [...node.children.values()].flatMap(enteredLeaves);
  const initial = node.config.initial;
  const first = typeof initial === 'string' ? node.children.get(initial) : undefined;
  return first ? enteredLeaves(first) : [];
}

/** States entered by a transition that carries the hand-over action: there the applicant leaves for the identity provider. */
export function handOverStates(resolved: Iterable<{ transition: Transition; target: StateNode }>): Set<StateNode> {
  const states = new Set<StateNode>();
  for (const { transition, target } of resolved) {
    if (transition.actions.some((a) => a.value === HAND_OVER_ACTION)) for (const leaf of enteredLeaves(target)) states.add(leaf);
  }
  return states;
}

/** Entry pages that invoke the provider-return actor: where the identity provider sends the applicant back. */
export function providerReturnPages(root: StateNode): StateNode[] {
  return [...root.children.values()].filter(
    (n) => isPage(n) && metaOf(n).entry === true && allNodes(n).some((d) => invokesOf(d).some((i) => i.src === PROVIDER_RETURN_ACTOR)),
  );
}
