import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpMessages } from '../../src/server/http-messages.js';
import { startTestServer, type TestServer } from './helpers.js';

/**
 * The connection limits over a real socket (issue 10): a request whose headers or body
 * trickle in is cut off with 408 and a Japanese message, and an idle kept-alive connection is
 * closed. The limits are shortened here by configuration; the defaults are in docs/configuration.md.
 */

describe('connection timeouts', () => {
  let server: TestServer;
  let port = 0;

  beforeAll(async () => {
    server = await startTestServer(
      { name: 'pglite' },
      { config: { timeouts: { headersMs: 1_000, requestMs: 1_500, idleMs: 10_000, keepAliveMs: 500 } } },
    );
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    port = (server.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Sends `head`, then one byte of `trickle` every 200 ms; resolves with what came back and when the socket closed. */
  function exchange(head: string, trickle = ''): Promise<{ answer: string; closedAfterMs: number }> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      let sent = 0;
      const timer = setInterval(() => {
        if (sent < trickle.length && !socket.destroyed) socket.write(trickle[sent++] ?? '');
      }, 200);
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (answer += chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ answer, closedAfterMs: Date.now() - started });
      });
      socket.write(head);
      setTimeout(() => {
        socket.destroy();
        reject(new Error('the server never closed the connection'));
      }, 8_000);
    });
  }

  it('cuts off a body that trickles in with 408 and a Japanese message', async () => {
    const head = 'POST /api/verification-codes/register HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n';
    const { answer, closedAfterMs } = await exchange(head, '{"bankCode":"0177",'.padEnd(200, ' '));
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain(JSON.stringify({ message: httpMessages.requestTimeout }));
    // Cut at the request limit (1.5 s, checked every second), long before 200 bytes at 5 per second.
    expect(closedAfterMs).toBeLessThan(4_000);
  });

  it('cuts off headers that trickle in', async () => {
    const { answer, closedAfterMs } = await exchange('GET /api/maintenance HTTP/1.1\r\n', 'Host: localhost\r\nX-Slow: '.padEnd(100, 'a'));
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(closedAfterMs).toBeLessThan(4_000);
  });

  it('closes a kept-alive connection that stays idle after its answer', async () => {
    const { answer, closedAfterMs } = await exchange('GET /api/maintenance HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 404/);
    expect(closedAfterMs).toBeLessThan(3_000);
  });
});
