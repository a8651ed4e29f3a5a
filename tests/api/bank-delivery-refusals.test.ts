import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { listDeliveries } from '../../src/server/delivery/rows.js';
import { complete, verifiedApplication } from './application-fixtures.js';
import { backends, startTestServer, withDeliveryEndpoints, type TestServer } from './helpers.js';

/**
 * Two answers a bank's endpoint must not turn into a delivery: a redirect (a signed application
 * goes only to the endpoint the bank configured, never where an answer points) and no answer
 * at all (given up after the delivery's timeout, kept as "timeout", tried again later).
 */

/** Bank 0177's endpoint redirects to a path of its own; 0587's never answers. */
class Endpoints {
  readonly redirectedTo: string[] = [];
  private server: Server | null = null;
  private port = 0;

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      if (request.url === '/redirect') response.writeHead(307, { location: '/elsewhere' }).end();
      else if (request.url === '/elsewhere') {
        this.redirectedTo.push(request.url);
        response.writeHead(200).end();
      }
      // '/silent': read, never answered.
      else request.resume();
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  of(bankCode: string): string {
    return `http://127.0.0.1:${this.port}/${bankCode === '0177' ? 'redirect' : 'silent'}`;
  }
}

describe.each(backends)('hand-off refused by the endpoint ($name)', (backend) => {
  const endpoints = new Endpoints();
  let server: TestServer;

  beforeAll(async () => {
    await endpoints.start();
    // The first retry an hour away: each delivery is tried once in this test.
    const delivery = { ...loadConfig({}).delivery, retryFirstMs: 3_600_000, pollMs: 50, timeoutMs: 300 };
    server = await startTestServer(backend, { config: { delivery }, banks: (banks) => withDeliveryEndpoints(banks, (code) => endpoints.of(code)) });
  });
  afterAll(async () => {
    await server?.close();
    await endpoints.stop();
  });

  it('follows no redirect and gives up on an endpoint that does not answer, keeping why', async () => {
    const redirected = await verifiedApplication(server, { bankCode: '0177' });
    const unanswered = await verifiedApplication(server, { bankCode: '0587' });
    expect((await complete(server, redirected)).statusCode).toBe(200);
    expect((await complete(server, unanswered)).statusCode).toBe(200);
    const errorOf = async (id: string) => (await listDeliveries(server.app.db)).find((row) => row.applicationId === id)?.lastError ?? null;
    await expect.poll(() => errorOf(redirected.id), { timeout: 10_000 }).toBe('http 307');
    await expect.poll(() => errorOf(unanswered.id), { timeout: 10_000 }).toBe('timeout');
    expect(endpoints.redirectedTo).toEqual([]);
    const states = (await listDeliveries(server.app.db)).map((row) => row.state);
    expect(states).toEqual(['failed', 'failed']);
  });
});
