import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { ServerConfig } from '../config.js';
import { cachedMasterData } from '../masterdata/cached.js';
import { seedFromFolder } from '../masterdata/seed.js';

/**
 * Writes banks/<code>/{occupations,branches,workplaces,invitations}.json of every bank whose
 * files changed since its last seed into the database at start (masterdata/seed.ts), so an
 * edited file takes effect on restart and the tables can never drift from the reviewed files,
 * while a plain restart writes nothing (issue 13). A broken file stops the start with the
 * file and JSON pointer (masterdata/load.ts). `app.masterData` reads the occupations and
 * branches (masterdata/cached.ts).
 */
const masterData: FastifyPluginAsync<{ config: ServerConfig }> = async (app, { config }) => {
  const { seeded, unchanged } = await seedFromFolder(
    app.db,
    config.banksDir,
    app.banks.all().map((bank) => bank.code),
  );
  app.log.info({ masterData: seeded, unchanged }, 'master data seeded');
  app.decorate('masterData', cachedMasterData(app.db, app.changes));
};

export default fp(masterData, { name: 'master-data', fastify: '5.x', dependencies: ['database', 'banks'] });
