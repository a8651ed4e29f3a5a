import { allNodes, invokesOf, isObject, isPage, stepOf, stringMeta, topLevelOf, type StateNode } from '../../../domain/flow/model';
import { EKYC_START_ACTOR, HAND_OVER_ACTION, PIN_SCREEN } from '../../../domain/flow/vocabulary';
import { pathLabel } from '../context';
import type { MeaningRule } from '../rule';
import { quoteList } from '../words';

/**
 * A way back, as the spec's navigation pairs have it: a step page has a BACK transition to the
 * page that leads to it by NEXT, except
 *   - right after the page whose screen sets the PIN (PIN_SCREEN): the PIN is final once set, and
 *   - on a page that starts the identity check (it invokes EKYC_START_ACTOR, or hands the applicant
 *     over with HAND_OVER_ACTION): what was entered and uploaded before is submitted at that point.
 * Entry pages and pages opened by an actor's result have no NEXT predecessor, so they are exempt.
 * Shipped result: every step page has BACK except general ekycPreparation, ekycCallback and child
 * ekycPreparation, parentEkycPreparation, ekycCallback.
 */
export const backOnStepPages: MeaningRule = {
  name: 'back-on-step-pages',
  description: `A step page has BACK to the page that leads to it by NEXT, except after the PIN page ("${PIN_SCREEN}") and on a page that starts the identity check ("${EKYC_START_ACTOR}", "${HAND_OVER_ACTION}").`,
  stage: 'meaning',
  check({ graphComplete, topLevel, reachable, pageEdges, handOvers }, report) {
    if (!graphComplete) return;
    const handOverPages = new Set([...handOvers].map(topLevelOf));
    const startsEkyc = (node: StateNode) => handOverPages.has(node) || allNodes(node).some((n) => invokesOf(n).some((i) => i.src === EKYC_START_ACTOR));
    for (const node of topLevel.filter((n) => stepOf(n) !== undefined && reachable.has(n))) {
      const from = pageEdges.filter((e) => e.t.event === 'NEXT' && e.to === node).map((e) => e.from).filter((p) => isPage(p) && stringMeta(p, 'screen') !== PIN_SCREEN);
      if (from.length === 0 || startsEkyc(node)) continue;
      if (pageEdges.some((e) => e.t.event === 'BACK' && e.from === node)) continue;
      report(
        isObject(node.config.on) ? `${node.pointer}/on` : node.pointer,
        `step page ${pathLabel(node)} has no BACK transition, but ${quoteList(from.map(pathLabel))} leads to it by NEXT; add "BACK": "${from[0]?.path[0] ?? ''}"`,
      );
    }
  },
};
