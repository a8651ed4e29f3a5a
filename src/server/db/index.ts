import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { ServerConfig } from '../config.js';
import { migrate, type MigrationTarget } from './migrate.js';
import * as schema from './schema.js';

export { schema };

/**
 * The database as every query sees it. PgliteDatabase and NodePgDatabase both extend
 * drizzle's PgDatabase and differ only in the driver-specific raw result type (the HKT
 * parameter), which our code never touches: it uses the query builder, whose results are
 * typed from schema.ts. Typing against the base class keeps the driver choice in this file
 * alone, and the compiler rejects any driver-only call elsewhere.
 */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface OpenedDatabase {
  db: Database;
  /** 'pglite' (embedded, one process per data dir) or 'postgres' (DATABASE_URL). */
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

/** The migrator's view of a PGlite instance. */
export function pgliteMigrationTarget(client: PGlite): MigrationTarget {
  return {
    transaction: async (run) => {
      await client.transaction(async (tx) => {
        await run({
          exec: async (sql) => {
            await tx.exec(sql);
          },
          query: async (sql, params) => (await tx.query<Record<string, unknown>>(sql, params)).rows,
        });
      });
    },
  };
}

/** The migrator's view of a node-postgres pool: one pooled connection per transaction. */
export function poolMigrationTarget(pool: pg.Pool): MigrationTarget {
  return {
    transaction: async (run) => {
      const connection = await pool.connect();
      try {
        await connection.query('BEGIN');
        await run({
          // Without parameters node-postgres uses the simple protocol, which runs a whole script.
          exec: async (sql) => {
            await connection.query(sql);
          },
          query: async (sql, params) => (await connection.query<Record<string, unknown>>(sql, params)).rows,
        });
        await connection.query('COMMIT');
      } catch (error) {
        await connection.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        connection.release();
      }
    },
  };
}

async function openPglite(dataDir: string): Promise<OpenedDatabase> {
  let client: PGlite;
  if (dataDir === ':memory:') {
    client = await PGlite.create();
  } else {
    // PGlite is a single-process database: two processes on one data directory would damage
    // it. The server and the operator command therefore must not run at the same time on one
    // DATA_DIR (with DATABASE_URL there is no such limit).
    const dir = path.join(dataDir, 'pglite');
    await mkdir(dir, { recursive: true });
    client = await PGlite.create(dir);
  }
  try {
    await migrate(pgliteMigrationTarget(client));
  } catch (error) {
    await client.close();
    throw error;
  }
  return { db: drizzlePglite({ client, schema }), kind: 'pglite', close: () => client.close() };
}

async function openPostgres(connectionString: string): Promise<OpenedDatabase> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // An idle connection dropped by the server emits 'error' on the pool; unhandled, that would
  // end the process. The pool replaces the connection; the next query reports real trouble.
  pool.on('error', (error) => {
    console.error(`PostgreSQL connection lost: ${error.message}`);
  });
  try {
    await migrate(poolMigrationTarget(pool));
  } catch (error) {
    await pool.end();
    throw error;
  }
  return { db: drizzlePg({ client: pool, schema }), kind: 'postgres', close: () => pool.end() };
}

/**
 * Opens the configured database and brings its schema up to date: PostgreSQL when
 * DATABASE_URL is set, else the embedded PGlite in DATA_DIR/pglite (or in memory for
 * DATA_DIR ':memory:').
 */
export async function openDatabase(config: Pick<ServerConfig, 'dataDir' | 'databaseUrl'>): Promise<OpenedDatabase> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite(config.dataDir);
}
