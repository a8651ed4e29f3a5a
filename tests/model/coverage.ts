/**
 * `npm run test:model` (first part): plans the journeys of each flow and prints what they
 * cover, state by state and transition by transition, naming whatever they leave out and why.
 * Exits 1 when the plan leaves out something a journey could reach: then the planner, not the
 * flow, is wrong. What no journey can reach (a guard that never holds) is printed, not fatal:
 * the flow lint and the product owner decide about it.
 */
import { coverageReport, planFlow, planMissesNothingReachable } from './plan';
import { loadFlows } from './flows';
import { SWAPPED_STEPS, swapAdjacentSteps } from './swap';

const flows = loadFlows();
const plans = flows.map((flow) => ({ label: flow.id, plan: planFlow(flow) }));
const swapped = flows.find((flow) => flow.id === SWAPPED_STEPS.flow);
if (swapped) {
  plans.push({
    label: `${swapped.id} with ${SWAPPED_STEPS.first} ⇄ ${SWAPPED_STEPS.second} (the swap test's copy)`,
    plan: planFlow(swapAdjacentSteps(swapped, SWAPPED_STEPS.first, SWAPPED_STEPS.second)),
  });
}

let complete = true;
for (const { label, plan } of plans) {
  console.log(coverageReport(label, plan));
  if (!planMissesNothingReachable(plan)) complete = false;
}
if (!complete) {
  console.error('the plan leaves out reachable states or transitions (see above)');
  process.exit(1);
}
