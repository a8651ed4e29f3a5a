import { createHash } from 'node:crypto';
import { constants, existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { repositoryRoot } from '../paths.js';
import type { MigrationFile } from './migrate.js';

/**
 * A migrated, empty PGlite cluster, made by `npm run build` (src/cli/pglite-template.ts) in two
 * forms: a folder, which a new DATA_DIR copies with the operating system's file copy, and the
 * same cluster as a gzipped tarball, which each ':memory:' database the tests start loads.
 *
 * PGlite.create() on an empty folder runs initdb: a second PGlite and initdb's own WebAssembly
 * next to the first, several seconds of CPU and some 400 MB that stay in the process until the
 * garbage collector happens to run (at idle it does not); then every migration runs in its own
 * transaction. A cluster made that way before gives the same files at a fraction of both.
 * Loading the tarball (PGlite's loadDataDir) still unpacks it in JavaScript and writes its
 * 1,100 files one by one through PGlite's emulated file system: about 1-2 s and 130 MB more
 * resident memory than opening a copied folder (issue 13: a fresh start within 1.5 s, 250 MB).
 * Both are named by the PGlite version, the template's shape and the migrations' names and
 * contents, so an edited or added migration or another PGlite finds no template and starts as
 * before (initdb, then the migrations); migrate() runs on every open either way.
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

/** How the build makes the template (src/cli/pglite-template.ts); a change of it names a new one. */
const TEMPLATE_SHAPE = 'migrated; template0 and template1 dropped';

function templateName(migrations: readonly MigrationFile[]): string {
  const hash = createHash('sha256').update(pgliteVersion()).update(`\0${TEMPLATE_SHAPE}`);
  for (const file of migrations) hash.update(`\0${file.name}\0${file.sql}`);
  return path.join(repositoryRoot, 'dist', 'pglite', `cluster-${hash.digest('hex').slice(0, 16)}`);
}

/** The tarball of the template (what ':memory:' databases load). */
export function pgliteTemplatePath(migrations: readonly MigrationFile[]): string {
  return `${templateName(migrations)}.tar.gz`;
}

/** The folder of the template (what a new DATA_DIR copies). */
export function pgliteTemplateDir(migrations: readonly MigrationFile[]): string {
  return templateName(migrations);
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

/**
 * Copies the folder `from` to `to` (which must not exist): the folders first, then every file at
 * once, so the copies run side by side on libuv's threads (fs.cp copies one file after the
 * other: 1.5-2.5 s for the template's files on a busy machine, against 0.7-1.5 s). Each file
 * is a copy-on-write clone where the file system has them, else a plain copy with its mode.
 */
async function copyFolder(from: string, to: string): Promise<void> {
  const entries = await readdir(from, { recursive: true, withFileTypes: true });
  const relative = (entry: (typeof entries)[number]) => path.relative(from, path.join(entry.parentPath, entry.name));
  await mkdir(to);
  for (const folder of entries.filter((entry) => entry.isDirectory()).map(relative).sort()) await mkdir(path.join(to, folder));
  const files = entries.filter((entry) => entry.isFile()).map(relative);
  await Promise.all(files.map((file) => copyFile(path.join(from, file), path.join(to, file), constants.COPYFILE_FICLONE)));
}

/**
 * Makes `dir` a copy of the template folder for these migrations; false when none was built,
 * or when `dir` exists and is not empty (then the caller opens it as before). The copy is made
 * beside `dir` and renamed into place, so a start that dies half-way leaves no half cluster for
 * the next start to take for a whole one (an existing PG_VERSION means "open as it is").
 */
export async function copyPgliteTemplate(migrations: readonly MigrationFile[], dir: string): Promise<boolean> {
  const template = pgliteTemplateDir(migrations);
  if (!existsSync(path.join(template, 'PG_VERSION'))) return false;
  if ((await readdir(dir).catch(() => [])).length > 0) return false;
  const staging = `${dir}.copying-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  try {
    await copyFolder(template, staging);
    // rename() replaces an empty folder, fails on one that is not (someone else got there).
    await rename(staging, dir);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  return true;
}
