import helmet from 'helmet';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { ServerConfig } from '../config.js';

/** Hosts Google Analytics 4 loads from and reports to (only allowed when analytics is on). */
const analyticsScriptHosts = ['https://www.googletagmanager.com'];
const analyticsConnectHosts = [
  'https://*.google-analytics.com',
  'https://*.analytics.google.com',
  'https://www.googletagmanager.com',
];

export function contentSecurityPolicy(config: Pick<ServerConfig, 'production' | 'analyticsMeasurementId'>) {
  const analytics = config.analyticsMeasurementId !== null;
  return {
    // Every directive is ours: helmet's defaults would add upgrade-insecure-requests.
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      // No inline script and no eval: the page's settings travel as JSON (type application/json).
      scriptSrc: ["'self'", ...(analytics ? analyticsScriptHosts : [])],
      // React sets style attributes; inline styles cannot run code.
      styleSrc: ["'self'", "'unsafe-inline'"],
      // data: and blob: for the camera previews of the identity documents.
      imgSrc: ["'self'", 'data:', 'blob:', ...(analytics ? analyticsConnectHosts : [])],
      connectSrc: ["'self'", ...(analytics ? analyticsConnectHosts : [])],
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
      // Only in production: phones test development builds over plain http on a LAN, where
      // upgrading every request to https would break the page.
      ...(config.production ? { upgradeInsecureRequests: [] } : {}),
    },
  };
}

/**
 * Security headers on every response (pages, assets, API) through helmet, and
 * `Cache-Control: no-store` on every API and /dev answer: they carry personal data and tokens
 * that no shared or browser cache may keep.
 */
const security: FastifyPluginAsync<{ config: ServerConfig }> = async (app, { config }) => {
  // helmet's middleware, made once: @fastify/helmet builds it anew for every request (its CSP
  // directives parsed each time), a tenth of the CPU of a cheap route. Our headers are the same
  // for every answer (no nonces), so one middleware serves all.
  const applyHeaders = helmet({
    contentSecurityPolicy: contentSecurityPolicy(config),
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
    xContentTypeOptions: true,
    // HSTS over plain http is ignored anyway; outside production it would only pin a LAN
    // address or localhost to https for a year.
    strictTransportSecurity: config.production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    // helmet calls back with an error only if a header cannot be set: our bug, the error handler's.
    applyHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
  });

  app.addHook('onSend', async (request, reply) => {
    const url = request.url;
    if (url === '/api' || url.startsWith('/api/') || url.startsWith('/api?') || url.startsWith('/dev/')) {
      reply.header('cache-control', 'no-store');
    }
  });
};

export default fp(security, { name: 'security', fastify: '5.x' });
