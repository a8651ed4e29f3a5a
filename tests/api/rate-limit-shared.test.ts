import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimits } from '../../src/server/db/schema.js';
import { applicant, HOUR, register, startTestServer, throwawaySchema, uniqueIp, type TestServer } from './helpers.js';

/**
 * The rate limits live in the database (migration 0010, src/server/boundary/rate-limits.ts):
 * server processes that share one PostgreSQL share the limits (tests/api/two-processes.test.ts),
 * and a restart does not reset them (here).
 */

describe('rate limits across a restart (PGlite on disk)', () => {
  let dataDir: string;
  const secrets = { hmacPepper: randomBytes(32).toString('base64url') };
  const start = () => startTestServer({ name: 'pglite' }, { config: { dataDir, secrets } });

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'kouza-rate-limit-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps the count through a restart, keeps no address or IP, and starts a new window after the hour', async () => {
    const who = applicant();
    const ip = uniqueIp();
    let server = await start();
    try {
      for (let i = 0; i < server.config.rateLimit.addressPerHour; i += 1) {
        expect((await register(server, who, ip)).statusCode).toBe(200);
      }
      const rows = await server.app.db.select().from(rateLimits);
      expect(rows.map((row) => row.name).sort()).toEqual(['POST /api/verification-codes/register', 'mail']);
      for (const row of rows) {
        expect(row.key).toMatch(/^[0-9a-f]{64}$/);
        expect(row.hits).toBe(server.config.rateLimit.addressPerHour);
      }
      expect(JSON.stringify(rows)).not.toContain(ip);
    } finally {
      await server.close();
    }

    server = await start();
    try {
      const limited = await register(server, who);
      expect(limited.statusCode).toBe(429);
      // The window is the one begun before the restart: less than an hour is left.
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(HOUR / 1000);

      // The window follows the app's clock; the next hit after it starts a new one, and the
      // ended rows of other keys are swept away.
      server.clock.advance(HOUR);
      expect((await register(server, who)).statusCode).toBe(200);
      const rows = await server.app.db.select().from(rateLimits);
      expect(rows.map((row) => [row.name, row.hits]).sort()).toEqual([
        ['POST /api/verification-codes/register', 1],
        ['mail', 1],
      ]);
    } finally {
      await server.close();
    }
  });
});
