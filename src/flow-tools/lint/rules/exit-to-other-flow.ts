import { stringMeta } from '../../../domain/flow/model';
import type { MeaningRule } from '../rule';
import { withChoices } from '../words';

export const exitToOtherFlow: MeaningRule = {
  name: 'exit-to-other-flow',
  description: 'meta.exitTo names a page of another flow (checked when the other flows are known): within the flow a transition does that.',
  stage: 'meaning',
  check({ topLevel, otherFlowPaths }, report) {
    if (!otherFlowPaths) return;
    const ownPaths = new Set(topLevel.flatMap((node) => stringMeta(node, 'path') ?? []));
    const others = [...new Set(otherFlowPaths)].filter((p) => !ownPaths.has(p));
    for (const node of topLevel) {
      const exitTo = stringMeta(node, 'exitTo');
      if (exitTo === undefined || otherFlowPaths.includes(exitTo)) continue;
      report(
        `${node.pointer}/meta/exitTo`,
        ownPaths.has(exitTo)
          ? `exitTo "${exitTo}" is a page of this flow; use a transition to its state instead`
          : withChoices(`exitTo "${exitTo}" is not a page of another flow`, exitTo, 'pages of the other flows', others),
      );
    }
  },
};
