import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type pg from 'pg';
import type { ServerConfig } from '../config.js';
import { migrate, readMigrations, type MigrationTarget } from './migrate.js';
import { clientForDrizzle } from './pglite-client.js';
import { copyPgliteTemplate, readPgliteTemplate } from './pglite-template.js';
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

/** What a LISTEN delivers: each notice's payload, and whether notices can be heard at all. */
export interface NoticeHandlers {
  notice(payload: string): void;
  listening(heard: boolean): void;
}

export interface OpenedDatabase {
  db: Database;
  /** 'pglite' (embedded, one process per data dir) or 'postgres' (DATABASE_URL). */
  kind: 'pglite' | 'postgres';
  /** LISTEN on a channel for as long as the database is open (PostgreSQL: reconnecting after a loss). */
  listen(channel: string, handlers: NoticeHandlers): Promise<void>;
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

/**
 * PostgreSQL's default 128 MB of shared buffers is resident in PGlite's WebAssembly memory from
 * the start (RSS after opening: 310 MB against 150 MB with 16 MB). One process's database,
 * a few MB per thousand applications, fits in 16 MB; what does not is read from the operating
 * system's file cache, not from disk.
 */
const PGLITE_START = { startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'] };

/**
 * V8 runs PGlite's WebAssembly first as baseline (Liftoff) code and recompiles a function with
 * its optimising compiler once it has run "enough" (its tiering budget, ~1.8 million bytes
 * executed). Opening a database runs so much of PostgreSQL once that at the default budget
 * hundreds of functions are optimised during the start, used once and rarely again: measured
 * here, ~700 ms of CPU and ~40 MB of resident memory of every start. With a budget 100 times
 * larger the start costs about half the CPU and memory; under load the hot functions are
 * optimised all the same, and after some 3,000 statements the CPU per statement is what it is
 * at the default (measured with a loop of inserts and selects; bench/start.ts for the start).
 * Set once per process, before the first module is compiled; it applies to this process's
 * WebAssembly only, and PGlite's is the only one.
 */
let tieringSet = false;
function deferWasmOptimisation(): void {
  if (tieringSet) return;
  tieringSet = true;
  setFlagsFromString('--wasm-tiering-budget=180000000');
}

async function openPglite(dataDir: string): Promise<OpenedDatabase> {
  deferWasmOptimisation();
  const migrations = await readMigrations();
  let client: PGlite;
  if (dataDir === ':memory:') {
    const template = await readPgliteTemplate(migrations);
    client = await PGlite.create(template ? { ...PGLITE_START, loadDataDir: template } : PGLITE_START);
  } else {
    // PGlite is a single-process database: two processes on one data directory would damage
    // it. The server and the operator command therefore must not run at the same time on one
    // DATA_DIR (with DATABASE_URL there is no such limit).
    const dir = path.join(dataDir, 'pglite');
    await mkdir(dataDir, { recursive: true });
    // A new folder starts as a copy of the template folder (or, failing that, from its
    // tarball), an existing one (PG_VERSION written) as it is.
    const fresh = !existsSync(path.join(dir, 'PG_VERSION')) && !(await copyPgliteTemplate(migrations, dir));
    if (fresh) await mkdir(dir, { recursive: true });
    const template = fresh ? await readPgliteTemplate(migrations) : undefined;
    client = await PGlite.create(dir, template ? { ...PGLITE_START, loadDataDir: template } : PGLITE_START);
  }
  try {
    await migrate(pgliteMigrationTarget(client), migrations);
  } catch (error) {
    await client.close();
    throw error;
  }
  return {
    db: drizzlePglite({ client: clientForDrizzle(client), schema }),
    kind: 'pglite',
    listen: async (channel, handlers) => {
      // PGlite delivers a notice before the statement that caused it resolves.
      await client.listen(channel, handlers.notice);
      handlers.listening(true);
    },
    close: () => client.close(),
  };
}

const RECONNECT_MS = 1_000;
/** A listening connection that died silently (a NAT or firewall dropped it) is found by asking. */
const HEALTH_CHECK_MS = 30_000;
const HEALTH_TIMEOUT_MS = 5_000;

/**
 * LISTEN on its own connection (a pooled one would be handed to queries). When the connection
 * is lost, or stops answering a periodic SELECT 1, the handlers hear `listening(false)` and a
 * new one is tried every second.
 */
async function listenPostgres(connectionString: string, channel: string, handlers: NoticeHandlers): Promise<{ stop(): Promise<void> }> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  const { default: pgModule } = await import('pg');
  let current: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  let health: NodeJS.Timeout | null = null;
  const lost = (client: pg.Client) => {
    if (current !== client) return;
    current = null;
    if (health) clearInterval(health);
    handlers.listening(false);
    console.error(`PostgreSQL: the LISTEN connection for ${channel} was lost; reading from the database until it is back`);
    void client.end().catch(() => undefined);
    schedule();
  };
  const check = (client: pg.Client) => {
    const timeout = new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('no answer')), HEALTH_TIMEOUT_MS).unref());
    Promise.race([client.query('SELECT 1'), timeout]).catch(() => lost(client));
  };
  const connect = async () => {
    const client = new pgModule.Client({ connectionString, keepAlive: true });
    client.on('notification', (message) => handlers.notice(message.payload ?? ''));
    client.on('error', () => lost(client));
    client.on('end', () => lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (stopped) {
      await client.end();
      return;
    }
    current = client;
    health = setInterval(() => check(client), HEALTH_CHECK_MS);
    health.unref();
    handlers.listening(true);
  };
  function schedule() {
    if (stopped) return;
    retry = setTimeout(() => void connect().catch(schedule), RECONNECT_MS);
    retry.unref();
  }
  await connect();
  return {
    stop: async () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      if (health) clearInterval(health);
      const client = current;
      current = null;
      await client?.end();
    },
  };
}

async function openPostgres(connectionString: string): Promise<OpenedDatabase> {
  // Imported here: a server on the embedded PGlite never loads node-postgres (about 100 ms).
  const [{ default: pgModule }, { drizzle: drizzlePg }] = await Promise.all([import('pg'), import('drizzle-orm/node-postgres')]);
  const pool = new pgModule.Pool({ connectionString, max: 10 });
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
  const listeners: Array<{ stop(): Promise<void> }> = [];
  return {
    db: drizzlePg({ client: pool, schema }),
    kind: 'postgres',
    listen: async (channel, handlers) => {
      listeners.push(await listenPostgres(connectionString, channel, handlers));
    },
    close: async () => {
      await Promise.all(listeners.map((listener) => listener.stop()));
      await pool.end();
    },
  };
}

/**
 * Opens the configured database and brings its schema up to date: PostgreSQL when
 * DATABASE_URL is set, else the embedded PGlite in DATA_DIR/pglite (or in memory for
 * DATA_DIR ':memory:').
 */
export async function openDatabase(config: Pick<ServerConfig, 'dataDir' | 'databaseUrl'>): Promise<OpenedDatabase> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite(config.dataDir);
}
