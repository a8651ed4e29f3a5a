import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { ServerConfig } from '../config.js';
import { createHasher } from '../crypto.js';
import { ChangeFeed, DATA_CHANGED_CHANNEL } from '../db/changes.js';
import { openDatabase } from '../db/index.js';
import { loadSecrets } from '../db/secrets.js';
import { UPKEEP_INTERVAL_MS, upkeepRound } from '../db/upkeep.js';
import { importDocumentFiles } from '../uploads/import-files.js';

/**
 * Opens (and migrates) the database, decorating `app.db`, and closes it with the app; then
 * imports the identity documents still on disk from before migration 0012 (uploads/import-files.ts);
 * `app.changes` hears which tables changed (db/changes.ts); on PGlite, which has no autovacuum,
 * analyzes and vacuums the tables that need it every UPKEEP_INTERVAL_MS (db/upkeep.ts). Also
 * decorates `app.hasher`, keyed by the pepper kept in DATA_DIR/secrets.json, because the
 * hashes it makes are only meaningful together with the rows that store them.
 */
const database: FastifyPluginAsync<{ config: ServerConfig }> = async (app, { config }) => {
  const secrets = await loadSecrets(config);
  const opened = await openDatabase(config);
  app.decorate('db', opened.db);
  const documentFiles = await importDocumentFiles(opened.db, config.dataDir);
  if (documentFiles.imported > 0) app.log.info(documentFiles, 'identity documents imported from DATA_DIR/documents into the database');
  if (documentFiles.missing > 0) app.log.warn(documentFiles, 'identity documents not imported: their files are not in DATA_DIR/documents');
  app.decorate('hasher', createHasher(secrets.hmacPepper));
  const changes = new ChangeFeed();
  await opened.listen(DATA_CHANGED_CHANNEL, { notice: (table) => changes.changed(table), listening: (heard) => changes.setListening(heard) });
  app.decorate('changes', changes);
  // PGlite has no autovacuum: this process keeps its statistics and dead rows in hand (db/upkeep.ts).
  let upkeep: Promise<unknown> | null = null;
  const upkeepTimer =
    opened.kind === 'pglite'
      ? setInterval(() => {
          upkeep ??= upkeepRound(opened.db)
            .catch((error: unknown) => app.log.error({ err: error }, 'database upkeep failed'))
            .finally(() => (upkeep = null));
        }, UPKEEP_INTERVAL_MS).unref()
      : null;
  app.addHook('onClose', async () => {
    if (upkeepTimer) clearInterval(upkeepTimer);
    await upkeep;
    await opened.close();
  });
  app.log.info({ database: opened.kind }, 'database ready');
};

export default fp(database, { name: 'database', fastify: '5.x' });
