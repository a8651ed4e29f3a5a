import { expect, test } from '@playwright/test';
import { formatProblem } from '../../src/domain/flow/lint';
import { checkFlowFiles, repositoryRoot } from '../../src/server/flows/check';
import { bankCodes } from '../e2e/support';
import { loadFlows, planFlows } from './flows';
import { journeyTitle, runJourney } from './journey';
import { SWAPPED_STEPS } from './swap';

/**
 * Editing a flow without code: tests/playwright.config.ts copies the flow folder with
 * seal-less moved before branch in the general flow (./swap.ts: JSON only, NEXT/BACK and step
 * counters) and starts a second server with FLOWS_DIR on the copy. The journeys generated from
 * the copied machine run against it, with no code changed anywhere.
 */
const dir = process.env.E2E_SWAPPED_FLOWS_DIR;
const setupError = process.env.E2E_SWAPPED_FLOWS_ERROR;
const label = `${SWAPPED_STEPS.flow} (${SWAPPED_STEPS.second} before ${SWAPPED_STEPS.first})`;

test('the edited copy passes the flow lint', () => {
  expect(setupError, 'writing the edited copy of the flows').toBeUndefined();
  const result = checkFlowFiles([], repositoryRoot, dir);
  expect(result.problems.map(formatProblem)).toEqual([]);
  const general = result.flows.find((flow) => flow.id === SWAPPED_STEPS.flow);
  // The edit is there: the step before the first swapped one now leads to the second.
  expect(general?.states[SWAPPED_STEPS.second]?.meta?.step).toBeLessThan(general?.states[SWAPPED_STEPS.first]?.meta?.step ?? 0);
});

if (dir) {
  const flows = loadFlows(dir);
  const plans = planFlows(flows.filter((flow) => flow.id === SWAPPED_STEPS.flow));
  for (const plan of plans) {
    plan.paths.forEach((path, index) => {
      // Other banks than the same journeys of the shipped flow (./journeys.spec.ts).
      const bank = bankCodes[(index + 2) % bankCodes.length] ?? '0177';
      test(journeyTitle(label, plan, path), async ({ page, baseURL }) => {
        await runJourney(page, { plan, path, flows, bank, baseURL: baseURL ?? '' });
      });
    });
  }
}
