import { stepOf } from '../../../domain/flow/model';
import { pathLabel } from '../context';
import type { MeaningRule } from '../rule';

export const stepRange: MeaningRule = {
  name: 'step-range',
  description: 'Step counters lie in 1..meta.totalSteps, and the largest step is meta.totalSteps (the N of "3/N").',
  stage: 'meaning',
  check({ topLevel, totalSteps }, report) {
    const stepped = topLevel.filter((n) => stepOf(n) !== undefined);
    for (const node of stepped) {
      const step = stepOf(node) ?? 0;
      if (step > totalSteps) report(`${node.pointer}/meta/step`, `step ${step} of ${pathLabel(node)} is outside 1..${totalSteps} (meta.totalSteps is ${totalSteps})`);
    }
    if (stepped.length === 0) {
      report('/meta/totalSteps', `meta.totalSteps is ${totalSteps} but no page has a meta.step`);
      return;
    }
    const largest = stepped.reduce((a, b) => ((stepOf(b) ?? 0) > (stepOf(a) ?? 0) ? b : a));
    if (stepOf(largest) !== totalSteps) report('/meta/totalSteps', `meta.totalSteps is ${totalSteps} but the largest step is ${String(stepOf(largest))} (state ${pathLabel(largest)}); they must be equal`);
  },
};
