import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimits } from '../../src/server/db/schema.js';
import { applicant, HOUR, register, startTestServer, throwawaySchema, uniqueIp, type TestServer } from './helpers.js';

/**
 * The rate limits live in the database (migration 0010, src/server/boundary/rate-limits.ts):
 * server processes that share one PostgreSQL share the limits, and a restart does not reset
 * them. Every instance of one deployment has the same HMAC pepper (as it must, to find the
 * address hashes of the others), so the tests give both instances the same secrets.
 */

const statusCounts = (codes: number[]) => ({
  ok: codes.filter((code) => code === 200).length,
  limited: codes.filter((code) => code === 429).length,
});

const testDatabaseUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!testDatabaseUrl)('rate limits shared by two app instances on one PostgreSQL (skipped without TEST_DATABASE_URL)', () => {
  // Skipped without TEST_DATABASE_URL: two app instances cannot open one PGlite (one process,
  // one instance per data directory), so sharing needs a real PostgreSQL.
  let database: Awaited<ReturnType<typeof throwawaySchema>>;
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    database = await throwawaySchema(testDatabaseUrl ?? '');
    const config = { databaseUrl: database.databaseUrl, secrets: { hmacPepper: randomBytes(32).toString('base64url') } };
    // The backend's own schema is not created: both instances use the one above.
    first = await startTestServer({ name: 'pglite' }, { config });
    second = await startTestServer({ name: 'pglite' }, { config });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database?.drop();
  });

  it('counts the codes of one address on both instances together', async () => {
    const who = applicant();
    const max = first.config.rateLimit.addressPerHour;
    for (let i = 0; i < max; i += 1) {
      expect((await register(i % 2 === 0 ? first : second, who)).statusCode).toBe(200);
    }
    expect((await register(first, who)).statusCode).toBe(429);
    expect((await register(second, who)).statusCode).toBe(429);
  });

  it('counts the requests of one IP on both instances together, also when they arrive at once', async () => {
    const ip = uniqueIp();
    const max = first.config.rateLimit.ipPerHour;
    const answers = await Promise.all(
      Array.from({ length: max + 10 }, (_, i) => register(i % 2 === 0 ? first : second, applicant(), ip)),
    );
    expect(statusCounts(answers.map((answer) => answer.statusCode))).toEqual({ ok: max, limited: 10 });
    // Another client is not affected on either instance.
    expect((await register(first, applicant())).statusCode).toBe(200);
    expect((await register(second, applicant())).statusCode).toBe(200);
  });
});

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
