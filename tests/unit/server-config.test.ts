import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: null,
      smtpUrl: null,
      defaultBank: '0177',
      production: false,
      analyticsMeasurementId: null,
      rateLimit: { addressPerHour: 5, ipPerHour: 30, verifyIpPerHour: 30 },
      timeouts: { headersMs: 20_000, requestMs: 120_000, idleMs: 30_000, keepAliveMs: 10_000 },
      ekycPollIntervalMs: null,
      mailQueue: { retryFirstMs: 5_000, retryMaxMs: 900_000, pollMs: 1_000, concurrency: 10 },
      trustProxy: false,
      logLevel: 'info',
      ekycProvider: 'simulator',
      identityCheckMethodsDay: null,
      ekycCallbackSecret: null,
      pinKeyFile: null,
    });
    expect(config.dataDir).toMatch(/data$/);
    expect(config.banksDir).toMatch(/banks$/);
    expect(config.distDir).toMatch(/dist[/\\]client$/);
    expect(config.secrets).toBeUndefined();
  });

  it('reads the environment', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/var/lib/kouza',
      DATABASE_URL: 'postgres://db/kouza',
      SMTP_URL: 'smtp://127.0.0.1:2525',
      DEFAULT_BANK: '0587',
      NODE_ENV: 'production',
      ANALYTICS_MEASUREMENT_ID: 'G-TEST',
      RATE_LIMIT_ADDRESS_PER_HOUR: '50',
      RATE_LIMIT_IP_PER_HOUR: '1000',
      RATE_LIMIT_VERIFY_IP_PER_HOUR: '200',
      HEADERS_TIMEOUT_MS: '5000',
      REQUEST_TIMEOUT_MS: '60000',
      IDLE_TIMEOUT_MS: '15000',
      KEEP_ALIVE_TIMEOUT_MS: '4000',
      EKYC_POLL_INTERVAL_MS: '100',
      TRUST_PROXY: 'true',
      EKYC_PROVIDER: 'simulator',
      EKYC_CALLBACK_SECRET: 'shared-with-the-provider',
      PIN_KEY_FILE: '/etc/kouza/pin-key.pem',
      MAIL_CONCURRENCY: '12',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/var/lib/kouza',
      databaseUrl: 'postgres://db/kouza',
      smtpUrl: 'smtp://127.0.0.1:2525',
      defaultBank: '0587',
      production: true,
      analyticsMeasurementId: 'G-TEST',
      rateLimit: { addressPerHour: 50, ipPerHour: 1000, verifyIpPerHour: 200 },
      timeouts: { headersMs: 5000, requestMs: 60_000, idleMs: 15_000, keepAliveMs: 4000 },
      ekycPollIntervalMs: 100,
      mailQueue: { concurrency: 12 },
      trustProxy: true,
      ekycProvider: 'simulator',
      ekycCallbackSecret: 'shared-with-the-provider',
      pinKeyFile: '/etc/kouza/pin-key.pem',
    });
  });

  it('wants the eKYC provider named in production, and a known one', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/EKYC_PROVIDER/);
    expect(() => loadConfig({ EKYC_PROVIDER: 'acme' })).toThrow(/EKYC_PROVIDER/);
  });

  it('judges the identity-check methods on IDENTITY_CHECK_METHODS_DAY when set, a real YYYY-MM-DD day, never in production', () => {
    expect(loadConfig({ IDENTITY_CHECK_METHODS_DAY: '2027-04-01' }).identityCheckMethodsDay).toBe('2027-04-01');
    expect(loadConfig({ IDENTITY_CHECK_METHODS_DAY: ' ' }).identityCheckMethodsDay).toBeNull();
    for (const malformed of ['2027-4-1', '2027-02-29', '2027-04-01T00:00+09:00', 'tomorrow']) {
      expect(() => loadConfig({ IDENTITY_CHECK_METHODS_DAY: malformed })).toThrow(`IDENTITY_CHECK_METHODS_DAY must be a day in Japan written YYYY-MM-DD, such as 2027-04-01, got ${malformed}`);
    }
    expect(() => loadConfig({ NODE_ENV: 'production', EKYC_PROVIDER: 'simulator', IDENTITY_CHECK_METHODS_DAY: '2027-04-01' })).toThrow(/IDENTITY_CHECK_METHODS_DAY must not be set in production/);
  });

  it('keeps a session 30 idle minutes and warns 2 minutes before, unless configured; the warning comes before the end', () => {
    expect(loadConfig({}).session).toEqual({ idleMs: 30 * 60_000, warningMs: 2 * 60_000 });
    expect(loadConfig({ SESSION_IDLE_MS: '60000', SESSION_WARNING_MS: '20000' }).session).toEqual({ idleMs: 60_000, warningMs: 20_000 });
    expect(() => loadConfig({ SESSION_IDLE_MS: '60000', SESSION_WARNING_MS: '60000' })).toThrow(/SESSION_WARNING_MS/);
  });

  it('refuses a malformed number', () => {
    expect(() => loadConfig({ RATE_LIMIT_IP_PER_HOUR: 'many' })).toThrow(/RATE_LIMIT_IP_PER_HOUR/);
    // No mail would ever be sent.
    expect(() => loadConfig({ MAIL_CONCURRENCY: '0' })).toThrow(/MAIL_CONCURRENCY must be at least 1/);
  });
});
