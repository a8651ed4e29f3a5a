import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { ServerConfig } from '../config.js';
import { createHasher } from '../crypto.js';
import { openDatabase } from '../db/index.js';
import { loadSecrets } from '../db/secrets.js';

/**
 * Opens (and migrates) the database, decorating `app.db`, and closes it with the app. Also
 * decorates `app.hasher`, keyed by the pepper kept in DATA_DIR/secrets.json, because the
 * hashes it makes are only meaningful together with the rows that store them.
 */
const database: FastifyPluginAsync<{ config: ServerConfig }> = async (app, { config }) => {
  const secrets = await loadSecrets(config);
  const opened = await openDatabase(config);
  app.decorate('db', opened.db);
  app.decorate('hasher', createHasher(secrets.hmacPepper));
  app.addHook('onClose', async () => {
    await opened.close();
  });
  app.log.info({ database: opened.kind }, 'database ready');
};

export default fp(database, { name: 'database', fastify: '5.x' });
