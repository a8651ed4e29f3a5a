import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { ServerConfig } from '../config.js';
import { loadSecrets } from '../db/secrets.js';
import type { EkycProvider } from '../ekyc/adapter.js';
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
  }
  app.decorate('ekyc', provider);
};

export default fp(ekyc, { name: 'ekyc', fastify: '5.x', dependencies: ['database'] });
