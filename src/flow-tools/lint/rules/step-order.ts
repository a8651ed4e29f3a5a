import { stepOf, topLevelOf, type StateNode } from '../../../domain/flow/model';
import { PROVIDER_RETURN_ACTOR } from '../../../domain/flow/vocabulary';
import { providerReturnPages } from '../../statechart';
import { pathLabel, type FlowContext } from '../context';
import type { MeaningRule } from '../rule';

/** Events that leave the forward path: a way back, a retry, a restart, a failure (an actor's error too). */
const NOT_FORWARD = new Set(['BACK', 'RETRY', 'RESTART', 'FAIL']);

/**
 * The forward path is the way an applicant moves on when all goes well: every transition between
 * pages but a way back, a retry, a restart, a failure or an actor's error, plus the identity
 * provider's return (from a hand-over page to the provider return pages).
 */
function forwardEdges({ pageEdges, handOvers, root }: FlowContext): Array<{ from: StateNode; to: StateNode; how: string }> {
  const handOverPages = new Set([...handOvers].map(topLevelOf));
  return [
    ...pageEdges
      .filter((e) => !NOT_FORWARD.has(e.t.event) && e.t.invoke?.outcome !== 'error')
      .map((e) => ({ from: e.from, to: e.to, how: `which leads to it by ${e.t.invoke ? `"${e.t.invoke.src}" done` : e.t.event}` })),
    ...[...handOverPages].flatMap((from) =>
      providerReturnPages(root).map((to) => ({ from, to, how: `which hands over to the identity provider, who sends the applicant back to it ("${PROVIDER_RETURN_ACTOR}")` })),
    ),
  ];
}

export const stepOrder: MeaningRule = {
  name: 'step-order',
  description: 'Along the forward path the first step page is step 1 and steps never go down (a page without a step carries the last one on).',
  stage: 'meaning',
  check(flow, report) {
    const { rootInitial, graphComplete, topLevel } = flow;
    if (!rootInitial || !graphComplete) return;
    const edges = forwardEdges(flow);
    // The largest step seen on the way into each page, carried through pages without a step.
    const forward = new Set<StateNode>([rootInitial]);
    const carried = new Map<StateNode, { step: number; node: StateNode }>();
    const own = (n: StateNode) => {
      const step = stepOf(n);
      return step !== undefined ? { step, node: n } : carried.get(n);
    };
    for (let changed = true; changed; ) {
      changed = false;
      for (const e of edges) {
        if (!forward.has(e.from)) continue;
        if (!forward.has(e.to)) {
          forward.add(e.to);
          changed = true;
        }
        const before = own(e.from);
        const known = carried.get(e.to);
        if (before && (!known || before.step > known.step)) {
          carried.set(e.to, before);
          changed = true;
        }
      }
    }
    const firstStep = (node: StateNode) => report(`${node.pointer}/meta/step`, `the first step page on the forward path, ${pathLabel(node)}, has step ${String(stepOf(node))}; it must be 1`);
    if (stepOf(rootInitial) !== undefined && stepOf(rootInitial) !== 1) firstStep(rootInitial);
    for (const node of topLevel.filter((n) => stepOf(n) !== undefined)) {
      const step = stepOf(node) ?? 0;
      const into = edges.filter((e) => e.to === node && forward.has(e.from));
      const before = carried.get(node);
      if (before && step < before.step) {
        const direct = into.find((e) => e.from === before.node);
        report(
          `${node.pointer}/meta/step`,
          `step ${step} of ${pathLabel(node)} is lower than step ${before.step} of ${pathLabel(before.node)}, ` +
            (direct ? direct.how : 'which comes before it on the forward path') +
            '; steps must not go down',
        );
      } else if (step !== 1 && into.some((e) => own(e.from) === undefined)) firstStep(node);
    }
  },
};
