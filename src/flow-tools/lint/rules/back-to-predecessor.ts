import { pathLabel } from '../context';
import type { MeaningRule } from '../rule';
import { quoteList } from '../words';

export const backToPredecessor: MeaningRule = {
  name: 'back-to-predecessor',
  description: 'Every BACK that leaves a page leads to a page that leads to it by NEXT: the back button never opens a page the applicant did not come from.',
  stage: 'meaning',
  check({ graphComplete, pageEdges, reachable }, report) {
    if (!graphComplete) return;
    for (const e of pageEdges.filter((b) => b.t.event === 'BACK' && reachable.has(b.from))) {
      const predecessors = pageEdges.filter((n) => n.t.event === 'NEXT' && n.to === e.from).map((n) => n.from);
      if (predecessors.includes(e.to)) continue;
      report(
        e.t.target?.pointer ?? e.t.pointer,
        `BACK from ${pathLabel(e.from)} leads to ${pathLabel(e.to)}, but ${pathLabel(e.to)} does not lead to ${pathLabel(e.from)} by NEXT` +
          (predecessors.length > 0 ? ` (pages that do: ${quoteList(predecessors.map((p) => p.path[0] ?? ''))})` : ' (no page leads to it by NEXT)'),
      );
    }
  },
};
