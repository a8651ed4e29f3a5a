import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { repositoryRoot } from '../paths.js';
import type { MigrationFile } from './migrate.js';

/**
 * A migrated, empty PGlite cluster, made by `npm run build` (src/cli/pglite-template.ts) and loaded by every new embedded
 * database (a new DATA_DIR, and each ':memory:' one the tests start).
 *
 * PGlite.create() on an empty folder runs initdb: a second PGlite and initdb's own WebAssembly
 * next to the first, several seconds of CPU and some 400 MB that stay in the process until the
 * garbage collector happens to run (at idle it does not); then every migration runs in its own
 * transaction. Unpacking a cluster made that way before gives the same files at a fraction of
 * both. The file is named by the PGlite version and the migrations' names and contents, so an
 * edited or added migration or another PGlite finds no template and starts as before (initdb,
 * then the migrations); migrate() runs on every open either way.
 */
function pgliteVersion(): string {
  // The package exports no package.json; it lies above the resolved entry (dist/index.cjs).
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!existsSync(path.join(dir, 'package.json'))) {
    if (path.dirname(dir) === dir) throw new Error('@electric-sql/pglite: no package.json above its entry');
    dir = path.dirname(dir);
  }
  const { version } = createRequire(import.meta.url)(path.join(dir, 'package.json')) as { version?: unknown };
  if (typeof version !== 'string') throw new Error('@electric-sql/pglite: no version in its package.json');
  return version;
}

export function pgliteTemplatePath(migrations: readonly MigrationFile[]): string {
  const hash = createHash('sha256').update(pgliteVersion());
  for (const file of migrations) hash.update(`\0${file.name}\0${file.sql}`);
  return path.join(repositoryRoot, 'dist', 'pglite', `cluster-${hash.digest('hex').slice(0, 16)}.tar.gz`);
}

/** The template for the installed PGlite and these migrations, or undefined when none was built. */
export async function readPgliteTemplate(migrations: readonly MigrationFile[]): Promise<Blob | undefined> {
  try {
    return new Blob([await readFile(pgliteTemplatePath(migrations))]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
