import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { VERIFICATION_METHODS } from '../../domain/identity-check-methods.js';
import type { ServerConfig } from '../config.js';
import { loadSecrets } from '../db/secrets.js';
import { EkycOidc, oidcCallbackRoutes } from '../ekyc/oidc.js';
import type Provider from 'oidc-provider';
import { STANDIN_PREFIX, standinRoutes } from '../ekyc/oidc-standin-routes.js';
import { EkycProviders } from '../ekyc/providers.js';
import { EkycSimulator, simulatorRoutes } from '../ekyc/simulator.js';

/**
 * Decorates `app.ekyc`, the identity-check providers by method (src/server/ekyc/providers.ts):
 * the photo-ID method through EKYC_PROVIDER's provider (the simulator, with its pages under
 * /ekyc-simulator/), JPKI through the OpenID Connect relying party. Refuses to start when a
 * bank's identityCheckMethods names a method this server cannot start, or (in production) JPKI
 * without EKYC_OIDC_ISSUER. The callback secret is EKYC_CALLBACK_SECRET, else the one generated
 * into DATA_DIR/secrets.json (tests: random).
 */
const ekyc: FastifyPluginAsync<{ config: ServerConfig }> = async (app, { config }) => {
  const secrets = await loadSecrets(config);
  const secret = config.ekycCallbackSecret ?? secrets.ekycCallbackSecret ?? randomBytes(32).toString('base64url');
  const simulator = new EkycSimulator(app.db, secret, () => app.now());
  await app.register(simulatorRoutes, { simulator, callbacks: { db: app.db, provider: simulator, now: () => app.now() } });
  const offersJpki = app.banks.all().some((bank) => bank.identityCheckMethods.some((window) => window.method === VERIFICATION_METHODS.JPKI_SIGNATURE));
  const providers = new EkycProviders(offersJpki ? [simulator, await oidcProvider(app, config, secrets.hmacPepper)] : [simulator]);
  const problems = app.banks.all().flatMap((bank) => providers.problemsWith(bank));
  if (problems.length > 0) throw new Error(`Identity-check methods without a provider:\n  ${problems.join('\n  ')}`);
  if (config.production) app.log.warn('EKYC_PROVIDER=simulator: photo-ID identity checks are NOT real; anyone can approve their own');
  if (config.identityCheckMethodsDay) app.log.warn(`IDENTITY_CHECK_METHODS_DAY=${config.identityCheckMethodsDay}: identity-check methods are offered as on that day, not today`);
  app.decorate('ekyc', providers);
};

/**
 * The JPKI method's relying party and its redirect_uri route; without EKYC_OIDC_ISSUER (never
 * in production, refused below) the stand-in OpenID provider at /oidc-provider of this server,
 * its issuer on the loopback address of the port the server listens on (or
 * EKYC_OIDC_STANDIN_ORIGIN), its keys derived from the pepper (the same in every process).
 */
async function oidcProvider(app: Parameters<typeof ekyc>[0], config: ServerConfig, pepper: string): Promise<EkycOidc> {
  const { issuer, clientId, clientSecret, standinOrigin } = config.ekycOidc;
  if (config.production && issuer === null) {
    throw new Error('EKYC_OIDC_ISSUER must be set in production when a bank offers JPKI_SIGNATURE (bank.json identityCheckMethods); the stand-in is for development only');
  }
  const standinIssuer = (): string => {
    const address = app.server.address();
    if (typeof address !== 'object' || address === null) throw new Error('the OpenID provider stand-in needs the server listening');
    return `${standinOrigin ?? `http://127.0.0.1:${address.port}`}${STANDIN_PREFIX}`;
  };
  const oidc = new EkycOidc(app.db, { issuer: () => new URL(issuer ?? standinIssuer()), clientId, clientSecret }, () => app.now());
  await app.register(oidcCallbackRoutes, { oidc });
  if (issuer !== null) return oidc;
  let standin: Promise<Provider> | undefined;
  // Made on the first request to it: oidc-provider and Koa stay out of a server whose applicants never choose JPKI.
  const standinOf = (): Promise<Provider> => {
    standin ??= (async () => {
      const { createStandin } = await import('../ekyc/oidc-standin.js');
      return createStandin(app.db, { issuer: standinIssuer(), clientId, clientSecret, pepper });
    })();
    standin.catch(() => (standin = undefined));
    return standin;
  };
  await app.register(standinRoutes, { standin: standinOf, db: app.db });
  return oidc;
}

export default fp(ekyc, { name: 'ekyc', fastify: '5.x', dependencies: ['database'] });
