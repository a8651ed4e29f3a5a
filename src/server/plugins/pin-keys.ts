import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { ServerConfig } from '../config.js';
import { loadPinKeys, pinKeyToGenerate } from '../pin/keys.js';

/**
 * Decorates `app.pinKeys`: the RSA key pairs of the PIN encryption (src/server/pin/keys.ts),
 * generated into DATA_DIR/keys on the first start or read from PIN_KEY_FILE.
 *
 * Stored keys and PIN_KEY_FILE are read before the server listens, so a broken one stops the
 * start. A key that must be generated first (the first start on a DATA_DIR; ':memory:') is
 * generated in the background: 3072 bits take 0.3-3 s of CPU, which the first page need not
 * wait for (issue 13); the two PIN routes await it, and closing waits for its file.
 */
const pinKeys: FastifyPluginAsync<{ config: ServerConfig }> = async (app, { config }) => {
  const generating = await pinKeyToGenerate(config);
  const keys = loadPinKeys(config);
  if (!generating) await keys;
  app.decorate('pinKeys', keys);
  keys.then(
    // The id only: it names the key, the key itself never reaches a log.
    (store) => app.log.info({ pinKeyId: store.current.keyId }, 'PIN encryption key ready'),
    (error: unknown) => app.log.error({ err: error }, 'PIN encryption key: generating it failed; PIN routes answer 500'),
  );
  app.addHook('onClose', async () => {
    await keys.catch(() => undefined);
  });
};

export default fp(pinKeys, { name: 'pin-keys', fastify: '5.x' });
