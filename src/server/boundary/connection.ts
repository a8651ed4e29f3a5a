import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyHttpOptions } from 'fastify';
import { messages } from '../../domain/messages.js';
import { httpMessages } from '../http-messages.js';

/**
 * Limits on the connection itself, so a client that trickles its headers or body, or holds a
 * connection open, cannot tie up the server (docs/configuration.md, "The request boundary"). Chosen for phones on slow
 * networks: a 1 MiB photo at 128 kbit/s takes about 66 s, within the 120 s of a whole request.
 */
export interface ConnectionTimeouts {
  /** HEADERS_TIMEOUT_MS: the request line and headers must arrive within this (default 20 s). */
  headersMs: number;
  /** REQUEST_TIMEOUT_MS: the whole request, body included (default 120 s). */
  requestMs: number;
  /** IDLE_TIMEOUT_MS: a connection on which nothing moves is closed (default 30 s). */
  idleMs: number;
  /** KEEP_ALIVE_TIMEOUT_MS: an idle kept-alive connection waits this long for its next request (default 10 s). */
  keepAliveMs: number;
}

export const defaultTimeouts: ConnectionTimeouts = { headersMs: 20_000, requestMs: 120_000, idleMs: 30_000, keepAliveMs: 10_000 };

/** The Fastify options that carry the timeouts; Node checks them every second. */
export function connectionOptions(
  timeouts: ConnectionTimeouts,
): Pick<FastifyHttpOptions<http.Server>, 'connectionTimeout' | 'keepAliveTimeout' | 'requestTimeout' | 'http' | 'clientErrorHandler'> {
  return {
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    // Node requires headersTimeout <= requestTimeout; its default check interval (30 s)
    // would let a timed-out request live up to 30 s longer.
    http: { headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs), connectionsCheckingInterval: 1_000 },
    clientErrorHandler,
  };
}

/**
 * Answers what Node's HTTP parser refuses before Fastify sees a request (a timeout, headers
 * too large, a malformed request line) in the same `{ message }` shape as every other error,
 * instead of Fastify's English default.
 */
function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, httpMessages.requestTimeout]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, httpMessages.payloadTooLarge]
        : [400, messages.badRequest];
  const body = JSON.stringify({ message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
