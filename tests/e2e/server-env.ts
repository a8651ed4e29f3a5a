import { TEST_IDENTITY_CHECK_DAY } from '../support/identity-check-day';

/**
 * The settings of every server the browser tests start (tests/playwright.config.ts, and the
 * flow-versions test, which restarts one of its own): only test-time settings differ from
 * production (raised rate limits, a shortened eKYC poll interval, the identity-check methods
 * of a fixed day).
 */
export const serverEnv: Record<string, string> = {
  HOST: '127.0.0.1',
  DEFAULT_BANK: '0177',
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_ADDRESS_PER_HOUR: '1000',
  RATE_LIMIT_IP_PER_HOUR: '10000',
  RATE_LIMIT_VERIFY_IP_PER_HOUR: '10000',
  EKYC_POLL_INTERVAL_MS: '200',
  // The journeys walk the photo-ID method and the child flow, which end with 2027-03-31.
  IDENTITY_CHECK_METHODS_DAY: TEST_IDENTITY_CHECK_DAY,
  // A private build (npx vite build --outDir …) lets parallel work on one machine test its own client.
  ...(process.env.E2E_DIST_DIR ? { DIST_DIR: process.env.E2E_DIST_DIR } : {}),
};
