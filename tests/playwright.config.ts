import { defineConfig, devices } from '@playwright/test';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Browser tests: Chromium at a phone viewport against one shared server started here.
 * Browsers cannot be downloaded on our machines, so Debian's /usr/bin/chromium is used when
 * present. Only test-time settings differ from production (a throwaway DATA_DIR, raised rate
 * limits, a shortened eKYC poll interval); the flows are the real ones.
 */
export const PORT = Number(process.env.E2E_PORT ?? 3199);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'kouza-e2e-'));
process.env.E2E_DATA_DIR = dataDir; // workers re-read this config: keep one directory for the run
const systemChromium = '/usr/bin/chromium';

export default defineConfig({
  testDir: './e2e',
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
    trace: 'off',
    launchOptions: {
      executablePath: existsSync(systemChromium) ? systemChromium : undefined,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    command: 'npx tsx src/server/main.ts',
    cwd: '..',
    url: `http://127.0.0.1:${PORT}/bank/logo`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEFAULT_BANK: '0177',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_ADDRESS_PER_HOUR: '1000',
      RATE_LIMIT_IP_PER_HOUR: '10000',
      EKYC_POLL_INTERVAL_MS: '200',
      // A private build (npx vite build --outDir …) lets parallel work on one machine test its own client.
      ...(process.env.E2E_DIST_DIR ? { DIST_DIR: process.env.E2E_DIST_DIR } : {}),
      ...(process.env.E2E_FLOWS_DIR ? { FLOWS_DIR: process.env.E2E_FLOWS_DIR } : {}),
    },
  },
});
