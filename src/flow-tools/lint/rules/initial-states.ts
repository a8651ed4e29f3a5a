import { initialProblem, pathLabel } from '../context';
import type { MeaningRule } from '../rule';
import { quoteList, withChoices } from '../words';

export const initialStates: MeaningRule = {
  name: 'initial-states',
  description: 'The flow and every state with sub-states (but a parallel one) name an existing initial sub-state.',
  stage: 'meaning',
  check({ nodes, root }, report) {
    for (const node of nodes) {
      const problem = initialProblem(root, node);
      const names = [...node.children.keys()];
      if (problem === 'missing') {
        const initial = String(node.config.initial);
        const where = node === root ? 'states' : `sub-states of ${pathLabel(node)}`;
        report(
          node === root ? '/initial' : `${node.pointer}/initial`,
          names.length === 0 ? `initial state "${initial}" does not exist: ${pathLabel(node)} has no sub-states` : withChoices(`initial state "${initial}" does not exist`, initial, where, names),
        );
      } else if (problem === 'absent') {
        report(node.pointer, `state ${pathLabel(node)} has sub-states but no "initial" (one of: ${quoteList(names)})`);
      }
    }
  },
};
