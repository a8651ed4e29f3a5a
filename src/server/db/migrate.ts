import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repositoryRoot } from '../paths.js';

/** Rows as plain objects: the migrator needs nothing richer. */
type Row = Record<string, unknown>;

/** A connection inside an open transaction. */
export interface MigrationTransaction {
  /** Runs a script of several statements (simple query protocol, no parameters). */
  exec(sql: string): Promise<void>;
  query(sql: string, params?: unknown[]): Promise<Row[]>;
}

/**
 * What the migrator needs from a driver. Drizzle's `execute` cannot be used: on PGlite it
 * goes through the extended protocol, which accepts one statement per call, while a migration
 * file holds many. Both drivers have a multi-statement call of their own, so openDatabase()
 * adapts each to this interface.
 */
export interface MigrationTarget {
  transaction(run: (tx: MigrationTransaction) => Promise<void>): Promise<void>;
}

// From the repository, not beside this module: the bundled server (dist/server) reads the same files.
const migrationsDir = pathToFileURL(join(repositoryRoot, 'src', 'server', 'db', 'migrations') + '/');

/** Any constant: every process that migrates the same database takes the same advisory lock. */
const MIGRATION_LOCK = 71_770_587;

export interface MigrationFile {
  name: string;
  sql: string;
}

export async function readMigrations(): Promise<MigrationFile[]> {
  const names = (await readdir(migrationsDir)).filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name)).sort();
  return Promise.all(names.map(async (name) => ({ name, sql: await readFile(new URL(name, migrationsDir), 'utf8') })));
}

/**
 * Applies the migrations not yet recorded in schema_migrations, in name order, each in its own
 * transaction together with its record, so a failing file leaves no half-applied schema. The
 * advisory lock makes two servers starting at once on one PostgreSQL database take turns.
 * Returns the names applied now.
 *
 * The names already recorded are read once first: on a restart every file is, and the start
 * then costs one transaction instead of one per file. A file seen as pending there is checked
 * again under the lock, since another server may have applied it meanwhile; a recorded one
 * needs no second look, as a migration is never undone.
 */
export async function migrate(target: MigrationTarget, files?: MigrationFile[]): Promise<string[]> {
  const migrations = files ?? (await readMigrations());
  const applied: string[] = [];
  let recorded = new Set<string>();
  await target.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    recorded = new Set((await tx.query('SELECT name FROM schema_migrations')).map((row) => String(row.name)));
  });
  for (const file of migrations.filter((migration) => !recorded.has(migration.name))) {
    await target.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [file.name]);
      if (done.length > 0) return;
      await tx.exec(file.sql);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file.name]);
      applied.push(file.name);
    });
  }
  return applied;
}
