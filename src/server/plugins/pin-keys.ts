import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { ServerConfig } from '../config.js';
import { loadPinKeys, pinKeyToGenerate, type PinKeyStore } from '../pin/keys.js';

/**
 * Decorates `app.pinKeys()`: the RSA key pairs of the PIN encryption (src/server/pin/keys.ts),
 * generated into DATA_DIR/keys on the first start or read from PIN_KEY_FILE.
 *
 * Stored keys and PIN_KEY_FILE are read before the server listens, so a broken one stops the
 * start. A key that must be generated first (the first start on a DATA_DIR; ':memory:') is
 * generated once the server listens, or when a PIN route asks first (an app that never
 * listens): 3072 bits take 0.3-3 s of CPU, which the start and the first page need not share
 * the machine's cores with (issue 13). The two PIN routes await it; closing waits for its file.
 */
const pinKeys: FastifyPluginAsync<{ config: ServerConfig }> = async (app, { config }) => {
  // The id only: it names the key, the key itself never reaches a log.
  const ready = (store: PinKeyStore) => app.log.info({ pinKeyId: store.current.keyId }, 'PIN encryption key ready');
  let keys: Promise<PinKeyStore> | undefined;
  if (!(await pinKeyToGenerate(config))) {
    const store = await loadPinKeys(config);
    ready(store);
    keys = Promise.resolve(store);
  }
  const get = (): Promise<PinKeyStore> => {
    if (keys) return keys;
    const generating = loadPinKeys(config);
    keys = generating;
    generating.then(ready, (error: unknown) => app.log.error({ err: error }, 'PIN encryption key: generating it failed; PIN routes answer 500'));
    return generating;
  };
  app.decorate('pinKeys', get);
  app.addHook('onListen', async () => {
    void get();
  });
  app.addHook('onClose', async () => {
    await keys?.catch(() => undefined);
  });
};

export default fp(pinKeys, { name: 'pin-keys', fastify: '5.x' });
