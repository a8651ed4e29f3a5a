import { pathLabel } from '../context';
import type { MeaningRule } from '../rule';

export const reachableStates: MeaningRule = {
  name: 'reachable-states',
  description: 'Every state can be reached from the initial state, an entry page (meta.entry) or the error page.',
  stage: 'meaning',
  check({ graphComplete, nodes, root, reachable, flow }, report) {
    if (!graphComplete) return;
    for (const node of nodes) {
      if (reachable.has(node) || (node.parent && !reachable.has(node.parent))) continue;
      const how = node.parent === root ? `the initial state "${String(flow.initial)}", an entry page or the error page` : `the initial sub-state of ${pathLabel(node.parent ?? root)}`;
      report(node.pointer, `state ${pathLabel(node)} can never be reached: no transition leads to it from ${how}`);
    }
  },
};
