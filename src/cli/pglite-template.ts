/**
 * npm run build, step: writes the migrated, empty PGlite cluster new embedded databases start
 * from (src/server/db/pglite-template.ts), as a folder and as a tarball of the same cluster,
 * once per PGlite version and set of migrations.
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgliteMigrationTarget } from '../server/db/index.js';
import { migrate, readMigrations } from '../server/db/migrate.js';
import { pgliteTemplateDir, pgliteTemplatePath } from '../server/db/pglite-template.js';

/**
 * Drops what a start never reads, so a new DATA_DIR copies less (issue 13: the copy was ~1 s of
 * a fresh start): initdb's template databases template0 and template1 (600 of the 1,100 files,
 * 14 of the 40 MB). PGlite is one database, "postgres", with one connection; nothing here
 * creates a database (CREATE DATABASE would need TEMPLATE postgres). The checkpoint leaves the
 * drop in the data files rather than only in the WAL.
 */
async function shrink(client: PGlite): Promise<void> {
  for (const name of ['template0', 'template1']) {
    await client.exec(`UPDATE pg_database SET datistemplate = false WHERE datname = '${name}'`);
    await client.exec(`DROP DATABASE ${name}`);
  }
  await client.exec('CHECKPOINT');
}

const migrations = await readMigrations();
const file = pgliteTemplatePath(migrations);
const dir = pgliteTemplateDir(migrations);
if (existsSync(file) && existsSync(path.join(dir, 'PG_VERSION'))) {
  console.log(`kept ${dir}(.tar.gz)`);
} else {
  // Both are written aside and renamed: a server starting meanwhile never reads half of either.
  const staging = `${dir}.tmp-${process.pid}`;
  await mkdir(staging, { recursive: true });
  const client = await PGlite.create(staging);
  try {
    await migrate(pgliteMigrationTarget(client), migrations);
    await shrink(client);
    const dump = await client.dumpDataDir('gzip');
    await writeFile(`${file}.tmp`, Buffer.from(await dump.arrayBuffer()));
  } finally {
    // Closing shuts the cluster down cleanly: the folder is then whole, as a restart finds it.
    await client.close();
  }
  await rename(`${file}.tmp`, file);
  await rm(dir, { recursive: true, force: true });
  await rename(staging, dir);
  console.log(`wrote ${dir}(.tar.gz)`);
}
