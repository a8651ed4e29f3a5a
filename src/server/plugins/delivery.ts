import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { getTableName } from 'drizzle-orm';
import type { BankRegistry } from '../banks/registry.js';
import type { ServerConfig } from '../config.js';
import { loadSecrets } from '../db/secrets.js';
import { bankDeliveries } from '../db/schema.js';
import { signingKeyFromPem, signingKeyFromPepper, type SigningKey } from '../delivery/signature.js';
import { DeliveryWorker } from '../delivery/worker.js';

/** Where the development receiver takes a bank's deliveries (routes/dev-bank-receiver.ts). */
export const DEV_RECEIVER_PATH = '/dev/bank-receiver';

/** This server as reached from itself: an address it listens on, the loopback one for "any". */
function originOf({ address, family, port }: AddressInfo): string {
  if (family === 'IPv6') return `http://[${address === '::' ? '::1' : address}]:${port}`;
  return `http://${address === '0.0.0.0' ? '127.0.0.1' : address}:${port}`;
}

async function signingKeyOf(config: ServerConfig): Promise<SigningKey> {
  if (config.delivery.signingKeyFile) return signingKeyFromPem(await readFile(config.delivery.signingKeyFile, 'utf8'));
  return signingKeyFromPepper((await loadSecrets(config)).hmacPepper);
}

/**
 * Why a production server must not start (main.ts): a bank without an https DELIVERY_ENDPOINT, or no
 * DELIVERY_SIGNING_KEY_FILE (a key derived from the pepper is for development only). Empty when ready.
 */
export function deliveryProblems(config: ServerConfig, banks: BankRegistry): string[] {
  if (!config.production) return [];
  const notHttps = banks.all().filter((bank) => !bank.DELIVERY_ENDPOINT?.startsWith('https://'));
  return [
    ...notHttps.map((bank) => `banks/${bank.code}/bank.json: DELIVERY_ENDPOINT (https) is required in production`),
    ...(config.delivery.signingKeyFile ? [] : ['DELIVERY_SIGNING_KEY_FILE is required in production (docs/adr/0033)']),
  ];
}

/**
 * Decorates `app.deliveries`, the worker that hands completed applications to their banks
 * (delivery/worker.ts), and `app.deliveryKey`, our signing key. A production server refuses to
 * start (main.ts, deliveryProblems) unless every bank has its DELIVERY_ENDPOINT and the key
 * file is given; elsewhere a bank without one is delivered to this server's own development
 * receiver once it listens (until then its deliveries wait, as 'no-endpoint').
 */
const delivery: FastifyPluginAsync<{ config: ServerConfig }> = async (app, { config }) => {
  const key = await signingKeyOf(config);
  let receiver: string | null = null;
  const endpointOf = (bankCode: string) => app.banks.get(bankCode)?.DELIVERY_ENDPOINT ?? (receiver ? `${receiver}/${bankCode}` : null);
  const worker = new DeliveryWorker(app.db, endpointOf, key, () => app.now(), app.log, config.delivery);
  app.decorate('deliveries', worker);
  app.decorate('deliveryKey', key);
  // A delivery queued or re-sent by another process (migration 0021's notice): look now.
  app.changes.onChange(getTableName(bankDeliveries), () => worker.wake());
  app.addHook('onListen', async () => {
    const address = app.server.address() as AddressInfo | null;
    if (!config.production && address && typeof address === 'object') {
      receiver = `${originOf(address)}${DEV_RECEIVER_PATH}`;
      worker.wake();
    }
  });
  app.addHook('onReady', async () => worker.start());
  app.addHook('onClose', async () => worker.stop());
};

export default fp(delivery, { name: 'delivery', fastify: '5.x', dependencies: ['database', 'banks'] });
