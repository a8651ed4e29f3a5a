import { TEST_IDENTITY_CHECK_DAY } from '../tests/support/identity-check-day.js';

/**
 * The environment of a server the benches drive (bench/load.ts, bench/cluster.ts): its data, the
 * bench's SMTP sink and bank receiver, limits that let one driver address run thousands of
 * applications, and the info log a deployment writes.
 */
export function benchServerEnv(options: { dataDir: string; databaseUrl: string | null; smtpUrl: string; banksDir: string }): Record<string, string> {
  return {
    DATA_DIR: options.dataDir,
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    SMTP_URL: options.smtpUrl,
    BANKS_DIR: options.banksDir,
    RATE_LIMIT_ADDRESS_PER_HOUR: '1000000',
    RATE_LIMIT_IP_PER_HOUR: '1000000',
    RATE_LIMIT_VERIFY_IP_PER_HOUR: '1000000',
    TRUST_PROXY: '127.0.0.1',
    LOG_LEVEL: 'info',
    // The applications walk the photo-ID method and the child flow, which end with 2027-03-31.
    IDENTITY_CHECK_METHODS_DAY: TEST_IDENTITY_CHECK_DAY,
  };
}
