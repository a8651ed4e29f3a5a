/**
 * `npm run test:model` (first part): plans the journeys of each flow and prints what they
 * cover, state by state, transition by transition and condition by condition, naming whatever
 * they leave out and why. Exits 1 when the plan leaves out something a journey could reach:
 * then the planner, not the flow, is wrong. What no journey can reach (a guard that never holds)
 * is printed, not fatal: the flow lint and the product owner decide about it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { coverageReport, planFlow, planMissesNothingReachable } from './plan';
import { loadFlows, planFlows } from './flows';
import { EDITED_COPY_FIRST_BANK, SWAPPED_STEPS, swapAdjacentSteps } from './swap';
import { NEW_STEPS, writeFoldersWithNewStep } from './new-step';

const flows = loadFlows();
const plans = planFlows(flows).map((plan) => ({ label: plan.testFlow.flow.id, plan }));
// The edited copy the model-swapped project runs (tests/playwright.config.ts writes the same one).
const copy = writeFoldersWithNewStep(mkdtempSync(join(tmpdir(), 'kouza-coverage-')), (flow) => swapAdjacentSteps(flow, SWAPPED_STEPS.first, SWAPPED_STEPS.second));
process.env.E2E_SCHEMAS_DIR = copy.schemasDir;
const edited = loadFlows(copy.flowsDir, copy.schemasDir).find((flow) => flow.id === SWAPPED_STEPS.flow);
if (edited) {
  plans.push({
    label: `${edited.id} with ${SWAPPED_STEPS.first} ⇄ ${SWAPPED_STEPS.second} and ${NEW_STEPS.map((step) => step.form).join(', ')} added (the edited copy's journeys)`,
    plan: planFlow(edited, EDITED_COPY_FIRST_BANK),
  });
}

let complete = true;
for (const { label, plan } of plans) {
  console.log(coverageReport(label, plan));
  if (!planMissesNothingReachable(plan)) complete = false;
}
if (!complete) {
  console.error('the plan leaves out reachable states or transitions, or a condition of a form a journey visits twice (see above)');
  process.exit(1);
}
