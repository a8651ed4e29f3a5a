import { defineConfig, devices } from '@playwright/test';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFoldersWithNewStep } from './model/new-step';
import { SWAPPED_STEPS, swapAdjacentSteps } from './model/swap';
import { serverEnv } from './e2e/server-env';

/**
 * Browser tests: Chromium at a phone viewport against one shared server started here.
 * Browsers cannot be downloaded on our machines, so Debian's /usr/bin/chromium is used when
 * present. Only test-time settings differ from production (a throwaway DATA_DIR, raised rate
 * limits, a shortened eKYC poll interval); the flows are the real ones.
 *
 * Projects: e2e (the hand-written journeys, tests/e2e), product (the specification's journeys
 * of the shipped flows, tests/product/journeys), model (the journeys and navigation
 * checks generated from the flow machines, tests/model) and model-swapped (the generated
 * journeys of an edited copy of the general flow and the schemas, with two steps swapped and a
 * new form step added, against a second server built and started on that copy).
 */
export const PORT = Number(process.env.E2E_PORT ?? 3199);
const SWAPPED_PORT = Number(process.env.E2E_SWAPPED_PORT ?? PORT + 1);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'kouza-e2e-'));
process.env.E2E_DATA_DIR = dataDir; // workers re-read this config: keep one directory for the run
const systemChromium = '/usr/bin/chromium';

/**
 * The edited copy of the flows and schemas (seal-less before branch, then a new step with a
 * new form after seal-less: ./model/swap.ts and ./model/new-step.ts, JSON only), written once
 * per run. A failure is kept for the swapped test to report, so that it never stops the other
 * projects. The generic form filler of the drivers reads the copied schemas (a superset of
 * schemas/).
 */
if (!process.env.E2E_SWAPPED_FLOWS_DIR && !process.env.E2E_SWAPPED_FLOWS_ERROR) {
  try {
    const dir = mkdtempSync(join(tmpdir(), 'kouza-edited-'));
    const { flowsDir, schemasDir } = writeFoldersWithNewStep(dir, (flow) => swapAdjacentSteps(flow, SWAPPED_STEPS.first, SWAPPED_STEPS.second));
    process.env.E2E_SWAPPED_FLOWS_DIR = flowsDir;
    process.env.E2E_SWAPPED_SCHEMAS_DIR = schemasDir;
    process.env.E2E_SCHEMAS_DIR = schemasDir;
    process.env.E2E_SWAPPED_BUILD_DIR = join(dir, 'build');
  } catch (error) {
    process.env.E2E_SWAPPED_FLOWS_ERROR = error instanceof Error ? error.message : String(error);
  }
}
const swappedFlowsDir = process.env.E2E_SWAPPED_FLOWS_DIR;
const swappedSchemasDir = process.env.E2E_SWAPPED_SCHEMAS_DIR ?? '';
const swappedBuildDir = process.env.E2E_SWAPPED_BUILD_DIR ?? '';
const swappedDataDir = process.env.E2E_SWAPPED_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'kouza-e2e-swapped-'));
process.env.E2E_SWAPPED_DATA_DIR = swappedDataDir;

/**
 * Whether this run may include the swapped journeys: not when --project names other projects
 * only, nor when every file filter is under tests/e2e. The second server starts only then.
 */
function mayRunSwapped(argv: string[]): boolean {
  const projects = argv.flatMap((arg, i) => (arg.startsWith('--project=') ? [arg.slice('--project='.length)] : arg === '--project' ? [argv[i + 1] ?? ''] : []));
  if (projects.length > 0 && !projects.includes('model-swapped')) return false;
  const fileFilters = argv.filter((arg) => !arg.startsWith('-') && /(^|\/)(e2e|model|product)(\/|$)|\.spec\.ts$/.test(arg));
  return fileFilters.length === 0 || fileFilters.some((arg) => /(^|\/)model(\/|$)|swapped/.test(arg));
}

// The server as npm start runs it: built ahead of time into dist/server (npm run build first).
const server = (port: number, env: Record<string, string>, command = 'node dist/server/main.js') => ({
  command,
  cwd: '..',
  url: `http://127.0.0.1:${port}/bank/logo`,
  reuseExistingServer: false,
  timeout: 60_000,
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
  env: { ...serverEnv, PORT: String(port), ...env },
});

const phone = { width: 360, height: 740 };
/** A generated journey walks a whole application, BACK steps and eKYC retries included. */
const JOURNEY_TIMEOUT = 240_000;

export default defineConfig({
  outputDir: '../test-results',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    ...devices['Pixel 7'],
    baseURL: `http://0177.localhost:${PORT}`,
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
    // A revealed question scrolls smoothly into view; a test's click during that scroll can land
    // beside its target (a person taps after it). Reduced motion makes the scroll instant.
    reducedMotion: 'reduce',
    trace: 'off',
    launchOptions: {
      executablePath: existsSync(systemChromium) ? systemChromium : undefined,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [
    { name: 'e2e', testDir: './e2e' },
    // The product's specification journeys: they pin the shipped flows to ../shared/spec.md.
    { name: 'product', testDir: './product/journeys' },
    {
      name: 'model',
      testDir: './model',
      testMatch: ['journeys.spec.ts', 'navigation-guard.spec.ts'],
      timeout: JOURNEY_TIMEOUT,
      use: { viewport: phone },
    },
    {
      name: 'model-swapped',
      testDir: './model',
      testMatch: 'swapped.spec.ts',
      timeout: JOURNEY_TIMEOUT,
      use: { viewport: phone, baseURL: `http://0177.localhost:${SWAPPED_PORT}` },
    },
  ],
  webServer: [
    server(PORT, {
      DATA_DIR: dataDir,
      ...(process.env.E2E_FLOWS_DIR ? { FLOWS_DIR: process.env.E2E_FLOWS_DIR } : {}),
    }),
    // The edited copy's own server: built from the copied schemas as a product owner's
    // deployment would be (npm run build with SCHEMAS_DIR), the copied flows, its own data.
    ...(swappedFlowsDir && mayRunSwapped(process.argv)
      ? [
          {
            ...server(
              SWAPPED_PORT,
              {
                DATA_DIR: swappedDataDir,
                FLOWS_DIR: swappedFlowsDir,
                SCHEMAS_DIR: swappedSchemasDir,
                VALIDATORS_DIR: join(swappedBuildDir, 'validators'),
                DIST_DIR: join(swappedBuildDir, 'client'),
              },
              `npx tsx src/cli/compile-validators.ts && npx vite build --logLevel warn --outDir ${join(swappedBuildDir, 'client')} && node dist/server/main.js`,
            ),
            // The build comes first (seconds; a busy 2-core machine may need far longer).
            timeout: 180_000,
          },
        ]
      : []),
  ],
});
