import { test } from '@playwright/test';
import { bankCodes } from '../e2e/support';
import { loadFlows, planFlows } from './flows';
import { journeyTitle, runJourney } from './journey';

/**
 * The journeys planned from flows/general.json and flows/child.json (see ./plan.ts), one test
 * each, spread over the three banks. `npm run test:model` prints what they cover.
 */
const flows = loadFlows();
const plans = planFlows(flows);

plans.forEach((plan, flowIndex) => {
  plan.paths.forEach((path, pathIndex) => {
    // Each flow starts on another bank, so every bank runs journeys of both flows.
    const bank = bankCodes[(flowIndex + pathIndex) % bankCodes.length] ?? '0177';
    test(journeyTitle(plan.testFlow.flow.id, plan, path), async ({ page, baseURL }) => {
      await runJourney(page, { plan, path, flows, bank, baseURL: baseURL ?? '' });
    });
  });
});
