import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { repositoryRoot } from '../../src/server/flows/check';
import { writeFlowsWithoutSteps } from '../model/remove-steps';
import { act, chooseProviderOutcome, stepCounterOf, TO_PERSONAL, walkTo, type Journey } from './drivers';
import { serverEnv } from './server-env';

/**
 * Issue 14, "finish on the flow you started", in the browser: an applicant who reached /branch
 * on the shipped flow is still on it after the server restarts (same data) on a copy of the
 * flows without /workplace and /seal-less: the page, whose shell now carries the edited flow,
 * fetches the applicant's own version and runs it (step bar, BACK to /workplace, the seal
 * choice) to the completed application. A new applicant in the same tab gets the edited flow.
 * This test starts and restarts a server of its own (node dist/server/main.js, as npm start
 * does) on E2E_VERSIONS_PORT, by default two above E2E_PORT (one above is the edited-copy server).
 */
const port = Number(process.env.E2E_VERSIONS_PORT ?? Number(process.env.E2E_PORT ?? 3199) + 2);
const origin = `http://0177.localhost:${port}`;

function startServer(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn('node', ['dist/server/main.js'], {
    cwd: repositoryRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { PATH: process.env.PATH ?? '', ...serverEnv, PORT: String(port), ...env },
  });
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 90_000;
    const poll = async () => {
      if (child.exitCode !== null) return reject(new Error(`the server exited with ${child.exitCode}`));
      const ready = await fetch(`http://127.0.0.1:${port}/bank/logo`).then((r) => r.ok, () => false);
      if (ready) return resolve(child);
      if (Date.now() > deadline) return reject(new Error('the server did not start in 90 s'));
      setTimeout(() => void poll(), 250);
    };
    void poll();
  });
}

function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A new applicant of the general flow, from the landing page to their /personal saved. */
async function startApplication(page: Page): Promise<Journey> {
  const journey: Journey = { page, bank: '0177', flow: 'general', memo: {} };
  await page.goto(`${origin}/term`);
  for (const [screen, event, arrival] of TO_PERSONAL.general) {
    await act(journey, screen, event);
    await expect(page).toHaveURL(`${origin}${arrival}`);
  }
  await act(journey, 'FormStep', 'NEXT', 'personal');
  return journey;
}

/** The step bar of `path` as the flows of `dir` (else the shipped ones) number it. */
const stepBar = (page: Page, path: string, dir?: string) => {
  const { step, of } = stepCounterOf('general', path, dir);
  return page.getByRole('progressbar', { name: `${of}ステップ中${step}ステップ目` });
};

test('an applicant keeps the flow they started after a restart on an edited flow; a new applicant gets the edited one', async ({ page }) => {
  test.setTimeout(240_000);
  const folder = mkdtempSync(join(tmpdir(), 'kouza-e2e-versions-'));
  const dataDir = join(folder, 'data');
  let server = await startServer({ DATA_DIR: dataDir });
  try {
    const journey = await startApplication(page);
    // The branch page's list loaded: a load cut by the stop below would end on the error page.
    const branches = page.waitForResponse((response) => response.url().endsWith('/api/branch'));
    await act(journey, 'FormStep', 'NEXT', 'workplace');
    await expect(page).toHaveURL(`${origin}/branch`);
    await expect(stepBar(page, '/branch')).toBeVisible();
    await branches;

    // The product owner drops /workplace (passed) and /seal-less (not reached); the server restarts.
    await stopServer(server);
    const edited = writeFlowsWithoutSteps(join(folder, 'flows'));
    server = await startServer({ DATA_DIR: dataDir, FLOWS_DIR: edited });
    await page.reload();
    await expect(page).toHaveURL(`${origin}/branch`);
    // Still the flow it started on: the shipped flow's counter.
    await expect(stepBar(page, '/branch')).toBeVisible();
    await act(journey, 'FormStep', 'BACK', 'branch');
    await expect(page).toHaveURL(`${origin}/workplace`);
    await act(journey, 'FormStep', 'NEXT', 'workplace');
    await act(journey, 'FormStep', 'NEXT', 'branch');
    await expect(page).toHaveURL(`${origin}/seal-less`);
    await walkTo(journey, '/seal-less', '/confirmation');
    await act(journey, 'Confirmation', 'NEXT');
    await act(journey, 'Pin', 'NEXT');
    await act(journey, 'EkycPreparation', 'START_EKYC');
    await chooseProviderOutcome(journey, 'approve');
    await expect(page).toHaveURL(`${origin}/complete`, { timeout: 30_000 });

    // A new applicant in the same tab (the landing page forgets the finished application).
    await startApplication(page);
    await expect(page).toHaveURL(`${origin}/branch`);
    await expect(stepBar(page, '/branch', edited)).toBeVisible();
  } finally {
    await stopServer(server);
    rmSync(folder, { recursive: true, force: true });
  }
});
