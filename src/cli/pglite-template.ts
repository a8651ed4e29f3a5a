/**
 * npm run build, step: writes the migrated, empty PGlite cluster new embedded databases start
 * from (src/server/db/pglite-template.ts), once per PGlite version and set of migrations.
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgliteMigrationTarget } from '../server/db/index.js';
import { migrate, readMigrations } from '../server/db/migrate.js';
import { pgliteTemplatePath } from '../server/db/pglite-template.js';

const migrations = await readMigrations();
const file = pgliteTemplatePath(migrations);
if (existsSync(file)) {
  console.log(`kept ${file}`);
} else {
  const client = await PGlite.create();
  try {
    await migrate(pgliteMigrationTarget(client), migrations);
    const dump = await client.dumpDataDir('gzip');
    await mkdir(path.dirname(file), { recursive: true });
    // Written aside and renamed: a server starting meanwhile never reads half a file.
    await writeFile(`${file}.tmp`, Buffer.from(await dump.arrayBuffer()));
    await rename(`${file}.tmp`, file);
  } finally {
    await client.close();
  }
  console.log(`wrote ${file}`);
}
