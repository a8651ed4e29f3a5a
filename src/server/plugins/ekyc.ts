import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { ServerConfig } from '../config.js';
import { loadSecrets } from '../db/secrets.js';
import type { EkycProvider } from '../ekyc/adapter.js';
import type { EkycOidc } from '../ekyc/oidc.js';
import type { Standin } from '../ekyc/oidc-standin.js';
import { EkycSimulator, simulatorRoutes } from '../ekyc/simulator.js';

/**
 * Decorates `app.ekyc`, the identity-check provider of EKYC_PROVIDER (src/server/ekyc/), and
 * for the simulator registers its pages under /ekyc-simulator/. The callback secret is
 * EKYC_CALLBACK_SECRET, else the one generated into DATA_DIR/secrets.json (tests: random).
 */
const ekyc: FastifyPluginAsync<{ config: ServerConfig }> = async (app, { config }) => {
  const secrets = await loadSecrets(config);
  const secret = config.ekycCallbackSecret ?? secrets.ekycCallbackSecret ?? randomBytes(32).toString('base64url');
  let provider: EkycProvider;
  switch (config.ekycProvider) {
    case 'simulator': {
      const simulator = new EkycSimulator(app.db, secret, () => app.now());
      provider = simulator;
      await app.register(simulatorRoutes, { simulator, callbacks: { db: app.db, provider: simulator, now: () => app.now() } });
      if (config.production) app.log.warn('EKYC_PROVIDER=simulator: identity checks are NOT real; anyone can approve their own');
      break;
    }
    case 'oidc': {
      provider = await oidcProvider(app, config);
      break;
    }
  }
  app.decorate('ekyc', provider);
};

/**
 * EKYC_PROVIDER=oidc: the relying party and its redirect_uri route; without EKYC_OIDC_ISSUER
 * (never in production, config.ts refuses) the stand-in OpenID provider at /oidc-provider of
 * this server, its issuer on the loopback address of the port the server listens on.
 */
async function oidcProvider(app: Parameters<typeof ekyc>[0], config: ServerConfig): Promise<EkycOidc> {
  const { issuer, clientId, clientSecret } = config.ekycOidc;
  // Loaded only when used: a server with another provider never loads openid-client, nor
  // oidc-provider (and Koa): together some 300 ms and 30 MB of every start (issue 13). The
  // build splits dynamic imports into chunks of their own (package.json, build:server).
  const [{ EkycOidc, oidcCallbackRoutes }, { createStandin, STANDIN_PREFIX, standinRoutes }] = await Promise.all([
    import('../ekyc/oidc.js'),
    import('../ekyc/oidc-standin.js'),
  ]);
  let standin: Standin | undefined;
  const standinOf = (): Standin => {
    if (!standin) {
      const address = app.server.address();
      if (typeof address !== 'object' || address === null) throw new Error('the OpenID provider stand-in needs the server listening');
      standin = createStandin(app.db, `http://127.0.0.1:${address.port}${STANDIN_PREFIX}`, clientId, clientSecret);
    }
    return standin;
  };
  const oidc = new EkycOidc(app.db, { issuer: () => new URL(issuer ?? standinOf().issuer), clientId, clientSecret }, () => app.now());
  await app.register(oidcCallbackRoutes, { oidc });
  if (issuer === null) await app.register(standinRoutes, { standin: standinOf, db: app.db });
  return oidc;
}

export default fp(ekyc, { name: 'ekyc', fastify: '5.x', dependencies: ['database'] });
