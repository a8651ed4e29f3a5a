import { test } from '@playwright/test';
import { loadFlows, planFlows } from './flows';
import { journeyTitle, runJourney } from './journey';

/**
 * The journeys planned from flows/general.json and flows/child.json (see ./plan.ts), one test
 * each, spread over the three banks. `npm run test:model` prints what they cover.
 */
const flows = loadFlows();
const plans = planFlows(flows);

plans.forEach((plan) => {
  plan.paths.forEach((path, pathIndex) => {
    const bank = plan.banks[pathIndex] ?? '0177';
    test(journeyTitle(plan.testFlow.flow.id, plan, path), async ({ page, baseURL }) => {
      await runJourney(page, { plan, path, flows, bank, baseURL: baseURL ?? '' });
    });
  });
});
