import { HAND_OVER_ACTION } from '../../../domain/flow/vocabulary';
import { activeWith, pathLabel } from '../context';
import type { MeaningRule } from '../rule';
import { quoteList } from '../words';

/**
 * An atomic state that is not final needs a way out: a transition with a target, written on it or
 * on a state around it (a sub-state also takes its page's transitions). Exempt: a state entered by
 * a transition with the hand-over action. There the browser leaves the app for the identity
 * provider, whose return is an entry page of its own (the one invoking the provider-return actor),
 * so the machine rightly stops there.
 */
export const noDeadEnds: MeaningRule = {
  name: 'no-dead-ends',
  description: `A state that is not final has a transition that leads somewhere, unless the applicant leaves for the identity provider there (entered with "${HAND_OVER_ACTION}").`,
  stage: 'meaning',
  check({ root, deadEnds }, report) {
    for (const leaf of deadEnds) {
      const around = activeWith(root, leaf);
      const owners = around.length > 1 ? `neither it nor ${quoteList(around.slice(1).map(pathLabel))} has a` : 'it has no';
      report(
        leaf.pointer,
        `state ${pathLabel(leaf)} is a dead end: ${owners} transition that leads anywhere; add one, or mark it "type": "final"` +
          ` (if the applicant leaves for the identity provider here, enter it with the action "${HAND_OVER_ACTION}")`,
      );
    }
  },
};
