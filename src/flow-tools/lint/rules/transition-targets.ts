import type { StateNode, TargetResolution } from '../../../domain/flow/model';
import type { MeaningRule } from '../rule';
import { withChoices } from '../words';

function explain(root: StateNode, target: string, r: Exclude<TargetResolution, { node: StateNode }>): string {
  if (r.error === 'other-flow') return `transition target "${target}" refers to "#${r.referredId}", but this flow's id is "${r.flowId}" (write "#${r.flowId}.<state>")`;
  if (r.error === 'no-state') return `transition target "${target}" must name a state after the flow id ("#${r.flowId}.<state>")`;
  const names = [...r.at.children.keys()];
  if (names.length === 0) return `transition target "${target}" does not exist ("${r.at.path.join('.')}" has no sub-states)`;
  const where = r.at === root ? 'states' : `states of "${r.at.path.join('.')}"`;
  return withChoices(`transition target "${target}" does not exist`, r.name, where, names);
}

export const transitionTargets: MeaningRule = {
  name: 'transition-targets',
  description: 'Every transition target names an existing state, read as XState reads it ("sibling", ".child", "#<flow id>.<state>").',
  stage: 'meaning',
  check({ targets, root }, report) {
    for (const { transition, resolution } of targets) {
      if ('error' in resolution && transition.target) report(transition.target.pointer, explain(root, transition.target.value, resolution));
    }
  },
};
