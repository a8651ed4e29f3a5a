import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import { rateLimits } from '../../src/server/db/schema.js';
import { applicant, backends, hostOf, register, startTestServer, uniqueIp, type TestServer } from './helpers.js';

describe.each(backends)('rate limits of code requests ($name)', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 429 with the Japanese message after 5 codes for one address in an hour, from any IP', async () => {
    const who = applicant();
    for (let i = 0; i < server.config.rateLimit.addressPerHour; i += 1) {
      expect((await register(server, who, uniqueIp())).statusCode).toBe(200);
    }
    // Another spelling of the same address counts as the same address.
    const limited = await register(server, { ...who, mailAddress: who.mailAddress.toUpperCase() }, uniqueIp());
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: messages.tooManyRequests });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // No mail went out for the refused request.
    expect((await server.outbox.list()).filter((mail) => mail.to === who.mailAddress)).toHaveLength(5);
    // Other addresses are not affected.
    expect((await register(server, applicant(), uniqueIp())).statusCode).toBe(200);
  });

  it('answers 429 with the Japanese message after 30 requests from one IP in an hour', async () => {
    const ip = uniqueIp();
    for (let i = 0; i < server.config.rateLimit.ipPerHour; i += 1) {
      expect((await register(server, applicant(), ip)).statusCode).toBe(200);
    }
    const limited = await register(server, applicant(), ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: messages.tooManyRequests });
    expect(limited.headers['cache-control']).toBe('no-store');
    // Other clients are not affected.
    expect((await register(server, applicant(), uniqueIp())).statusCode).toBe(200);
  });

  // Both limits are counted in one statement (ADR 0041); what each request counts and the answers stay as they were.
  it('counts every request from an IP, a body that cannot be read too, and refuses an IP over its limit before looking at the body', async () => {
    const ip = uniqueIp();
    const raw = (payload: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/verification-codes/register',
        headers: { host: hostOf(server, '0177'), 'content-type': 'application/json' },
        remoteAddress: ip,
        payload,
      });
    const first = await register(server, applicant(), ip);
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-ratelimit-limit']).toBe(String(server.config.rateLimit.ipPerHour));
    expect(first.headers['x-ratelimit-remaining']).toBe(String(server.config.rateLimit.ipPerHour - 1));
    expect(Number(first.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    // Not JSON (answered before any hook reads the body), then JSON that is not a valid request.
    expect((await raw('{not json')).statusCode).toBe(400);
    expect((await raw(JSON.stringify({ bankCode: '0177' }))).statusCode).toBe(400);
    for (let i = 3; i < server.config.rateLimit.ipPerHour; i += 1) expect((await register(server, applicant(), ip)).statusCode).toBe(200);
    // Over the limit: 429 whatever is sent, and the address of a refused request is not counted.
    const who = applicant();
    const limited = await register(server, who, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await raw(JSON.stringify({ bankCode: '0177' }))).statusCode).toBe(429);
    const addressRows = await server.app.db.select().from(rateLimits);
    expect(addressRows.filter((row) => row.name === 'mail' && row.key === server.app.hasher.rateLimitKey(server.app.hasher.mail(who.mailAddress)))).toEqual([]);
    for (let i = 0; i < server.config.rateLimit.addressPerHour; i += 1) expect((await register(server, who, uniqueIp())).statusCode).toBe(200);
    expect((await register(server, who, uniqueIp())).statusCode).toBe(429);
  });
});

describe('rate limits from the environment', () => {
  it('can be raised for the browser tests', async () => {
    const server = await startTestServer({ name: 'pglite' }, { config: { rateLimit: { addressPerHour: 7, ipPerHour: 100, verifyIpPerHour: 100 } } });
    try {
      const who = applicant();
      for (let i = 0; i < 7; i += 1) expect((await register(server, who)).statusCode).toBe(200);
      expect((await register(server, who)).statusCode).toBe(429);
    } finally {
      await server.close();
    }
  });
});
