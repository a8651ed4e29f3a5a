import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicant, backends, captureLog, codeFromOutbox, hostOf, PRODUCTION, register, startTestServer, type TestServer, verify } from './helpers.js';

function directives(csp: string | undefined): Map<string, string> {
  return new Map(
    (csp ?? '')
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [name = '', ...values] = part.split(/\s+/);
        return [name, values.join(' ')] as const;
      }),
  );
}

describe.each(backends)('security headers and logging ($name)', (backend) => {
  let server: TestServer;
  const { stream: logStream, lines } = captureLog();

  beforeAll(async () => {
    server = await startTestServer(backend, { config: { logLevel: 'info' }, logStream });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sends a strict CSP and the other security headers on API answers', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/maintenance', headers: { host: hostOf(server, '0177') } });
    const csp = response.headers['content-security-policy'];
    expect(typeof csp).toBe('string');
    expect(csp).not.toContain('unsafe-eval');
    const policy = directives(csp as string);
    expect(policy.get('default-src')).toBe("'self'");
    expect(policy.get('script-src')).toBe("'self'");
    expect(policy.get('style-src')).toBe("'self' 'unsafe-inline'");
    expect(policy.get('img-src')).toBe("'self' data: blob:");
    expect(policy.get('connect-src')).toBe("'self'");
    expect(policy.get('object-src')).toBe("'none'");
    expect(policy.get('base-uri')).toBe("'none'");
    expect(policy.get('frame-ancestors')).toBe("'none'");
    expect(policy.get('form-action')).toBe("'self'");
    // Phones test development builds over plain http.
    expect(policy.has('upgrade-insecure-requests')).toBe(false);
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('marks every API answer no-store, errors and unknown paths included', async () => {
    const host = hostOf(server, '0177');
    const answers = await Promise.all([
      server.app.inject({ method: 'GET', url: '/api/notifications/0177', headers: { host } }),
      server.app.inject({ method: 'GET', url: '/api/applications', headers: { host } }),
      server.app.inject({ method: 'GET', url: '/api/no-such-thing?x=1', headers: { host } }),
      server.app.inject({ method: 'POST', url: '/api/verification-codes/register', headers: { host }, payload: {} }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 401, 404, 400]);
    for (const answer of answers) {
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers['content-security-policy']).toBeDefined();
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
    }
  });

  it('logs method, route and status but no address, code, token, query or body', async () => {
    const who = applicant();
    const host = hostOf(server, '0177');
    await register(server, who);
    const code = await codeFromOutbox(server.outbox, who.mailAddress);
    const token = (await verify(server, who, code)).json<{ authenticationToken: string }>().authenticationToken;
    await server.app.inject({ method: 'GET', url: '/api/applications', headers: { host, authorization: `Bearer ${token}` } });
    await server.app.inject({ method: 'GET', url: `/api/unknown?mail=${encodeURIComponent(who.mailAddress)}`, headers: { host } });
    await server.app.inject({
      method: 'POST',
      url: '/api/verification-codes/verify',
      headers: { host, 'content-type': 'application/json' },
      payload: `{"mailAddress":"${who.mailAddress}", broken`,
    });
    const log = lines.join('');
    expect(log).toContain('/api/verification-codes/register');
    expect(log).toContain('"statusCode":200');
    expect(log).toContain('"statusCode":401');
    for (const secret of [who.mailAddress, encodeURIComponent(who.mailAddress), code, token, 'Bearer', 'mail=']) {
      expect(log).not.toContain(secret);
    }
  });

  it('logs each request once, at its reply: method, route pattern, status and time, nothing else', async () => {
    const who = applicant();
    const host = hostOf(server, '0177');
    lines.length = 0;
    await register(server, who);
    await server.app.inject({ method: 'GET', url: '/api/notifications/0177?mail=x', headers: { host } });
    await server.app.inject({
      method: 'POST',
      url: '/api/verification-codes/register',
      headers: { host, 'content-type': 'application/json' },
      payload: `{"mailAddress":"${who.mailAddress}", broken`,
    });
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.map((entry) => entry.msg)).not.toContain('incoming request');
    const requests = entries.filter((entry) => entry.msg === 'request completed');
    expect(requests.map((entry) => [entry.req, entry.res])).toEqual([
      [{ method: 'POST', route: '/api/verification-codes/register' }, { statusCode: 200 }],
      [{ method: 'GET', route: '/api/notifications/:bankCode' }, { statusCode: 200 }],
      [{ method: 'POST', route: '/api/verification-codes/register' }, { statusCode: 400 }],
    ]);
    for (const entry of requests) {
      expect(Object.keys(entry).sort()).toEqual(['hostname', 'level', 'msg', 'pid', 'req', 'reqId', 'res', 'responseTime', 'time']);
      expect(entry.responseTime).toBeGreaterThan(0);
    }
    // A refused request keeps its own line, by its code only, as every error does.
    expect(entries.filter((entry) => entry.msg === 'request rejected')).toHaveLength(1);
    expect(lines.join('')).not.toContain(who.mailAddress);
  });
});

describe('production security headers', () => {
  it('adds HSTS and upgrade-insecure-requests, and no /dev routes', async () => {
    const server = await startTestServer({ name: 'pglite' }, { config: PRODUCTION });
    try {
      const response = await server.app.inject({ method: 'GET', url: '/api/maintenance', headers: { host: hostOf(server, '0177') } });
      expect(directives(response.headers['content-security-policy'] as string).has('upgrade-insecure-requests')).toBe(true);
      expect(response.headers['strict-transport-security']).toContain('max-age=');
      const outbox = await server.app.inject({ method: 'GET', url: '/dev/outbox.json', headers: { host: hostOf(server, '0177') } });
      expect(outbox.statusCode).toBe(404);
    } finally {
      await server.close();
    }
  });
});
