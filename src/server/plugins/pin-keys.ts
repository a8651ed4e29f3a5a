import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { ServerConfig } from '../config.js';
import { loadPinKeys } from '../pin/keys.js';

/**
 * Decorates `app.pinKeys`: the RSA key pairs of the PIN encryption (src/server/pin/keys.ts),
 * generated into DATA_DIR/keys on the first start or read from PIN_KEY_FILE.
 */
const pinKeys: FastifyPluginAsync<{ config: ServerConfig }> = async (app, { config }) => {
  const store = await loadPinKeys(config);
  app.decorate('pinKeys', store);
  // The id only: it names the key, the key itself never reaches a log.
  app.log.info({ pinKeyId: store.current.keyId }, 'PIN encryption key ready');
};

export default fp(pinKeys, { name: 'pin-keys', fastify: '5.x' });
