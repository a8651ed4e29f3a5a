import { describeFlow } from '../../../domain/flow/model';
import { resumeSteps } from '../../../domain/flow/resume';
import type { FlowConfig } from '../../../domain/flow/types';
import { escapePointerSegment } from '../../../domain/json-pointer';
import type { MeaningRule } from '../rule';
import { withChoices } from '../words';

/**
 * meta.movedStates (ADR 0032): each key is a state an older version had and this one removed,
 * each value the step of this flow where its applicants go on. A key this flow still has moves
 * nobody (its applicants stay on their version); a value must be a step a resumed applicant can
 * be at: a page after the e-mail check, along NEXT.
 */
export const movedStates: MeaningRule = {
  name: 'moved-states',
  description: 'meta.movedStates maps states this flow no longer has to steps of this flow after the e-mail check.',
  stage: 'meaning',
  check({ flow, meta, root, graphComplete }, report) {
    const moved = meta.movedStates as Record<string, string> | undefined;
    if (moved === undefined) return;
    // Until every target resolves, the steps are not known (transition-targets says why).
    const steps = resumeSteps(describeFlow(flow as unknown as FlowConfig)).map((page) => page.stateId);
    for (const [from, to] of Object.entries(moved)) {
      const pointer = `/meta/movedStates/${escapePointerSegment(from)}`;
      if (root.children.has(from)) {
        report(pointer, `movedStates: "${from}" is still a state of this flow, so there is nothing to move (its applicants stay on their version); remove the line`);
      } else if (graphComplete && !steps.includes(to)) {
        report(pointer, withChoices(`movedStates: "${from}" moves its applicants to "${to}", which is not a step of this flow they can go on at`, to, 'steps after the e-mail check', steps));
      }
    }
  },
};
