import { sql } from 'drizzle-orm';
import type { Database } from './index.js';
import { rowsOf } from './values.js';

/**
 * The embedded database's autovacuum. PGlite runs no autovacuum, so without this no table is
 * ever analyzed or vacuumed: the planner keeps the generic plans it chose for the prepared
 * statements while the tables were nearly empty, and a session check then reads every
 * application of the bank to find one (measured: 2.4 ms at 30,000 applications instead of
 * 0.17 ms), while updated rows leave dead versions behind for good. Each round analyzes the
 * tables whose changes since their last ANALYZE, and vacuums those whose dead rows, pass
 * PostgreSQL's own autovacuum thresholds; an ANALYZE also makes the cached plans be made
 * anew. PostgreSQL (DATABASE_URL) runs its own autovacuum: this is for PGlite only.
 */

/** How often the embedded database is looked at (PostgreSQL's autovacuum_naptime is a minute; a fresh deployment fills fast). */
export const UPKEEP_INTERVAL_MS = 10_000;

// PostgreSQL's defaults: autovacuum_{analyze,vacuum}_threshold and _scale_factor.
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE = 0.1;
const VACUUM_THRESHOLD = 50;
const VACUUM_SCALE = 0.2;

interface TableActivity {
  name: string;
  changedSinceAnalyze: number;
  deadRows: number;
  /** The row count the planner last learned (0 before the first ANALYZE). */
  rows: number;
}

async function activity(db: Database): Promise<TableActivity[]> {
  // A backend sends its counts to the statistics at most once a second; this one's, now.
  await db.execute(sql`select pg_stat_force_next_flush()`);
  const result = await db.execute(sql`
    select s.relname as name, s.n_mod_since_analyze as changed, s.n_dead_tup as dead, greatest(c.reltuples, 0) as rows
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where s.schemaname = current_schema()`);
  const rows = rowsOf<{ name: string; changed: number | string; dead: number | string; rows: number | string }>(result);
  return rows.map((row) => ({ name: row.name, changedSinceAnalyze: Number(row.changed), deadRows: Number(row.dead), rows: Number(row.rows) }));
}

/** One round: analyzes (and vacuums) the tables that need it; returns their names. */
export async function upkeepRound(db: Database): Promise<{ analyzed: string[]; vacuumed: string[] }> {
  const analyzed: string[] = [];
  const vacuumed: string[] = [];
  for (const table of await activity(db)) {
    const vacuum = table.deadRows > VACUUM_THRESHOLD + VACUUM_SCALE * table.rows;
    const analyze = table.changedSinceAnalyze > ANALYZE_THRESHOLD + ANALYZE_SCALE * table.rows;
    if (vacuum) await db.execute(sql`VACUUM (ANALYZE) ${sql.identifier(table.name)}`);
    else if (analyze) await db.execute(sql`ANALYZE ${sql.identifier(table.name)}`);
    if (vacuum) vacuumed.push(table.name);
    if (vacuum || analyze) analyzed.push(table.name);
  }
  return { analyzed, vacuumed };
}
