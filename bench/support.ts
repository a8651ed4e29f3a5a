import { randomBytes } from 'node:crypto';
import { loadConfig, type ServerConfig } from '../src/server/config.js';

/**
 * What every bench shares: a server config on an in-memory PGlite with no mail server, no log
 * and a fresh pepper (overrides on top), and the percentiles of timings.
 */
export function benchConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return {
    ...loadConfig({}),
    dataDir: ':memory:',
    databaseUrl: null,
    smtpUrl: null,
    host: '127.0.0.1',
    port: 0,
    logLevel: 'silent',
    secrets: { hmacPepper: randomBytes(32).toString('base64url') },
    ...overrides,
  };
}

/** The value at quantile p (0..1) of timings already sorted ascending. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? Number.NaN;
}

/** Median and 95th percentile of timings in any order. */
export function medianAndP95(samples: readonly number[]): { median: number; p95: number } {
  const { median, p95 } = latencySummary(samples);
  return { median, p95 };
}

/** Count, median, 95th and 99th percentile and maximum of timings in any order. */
export function latencySummary(samples: readonly number[]): { count: number; median: number; p95: number; p99: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    count: sorted.length,
    median: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}
