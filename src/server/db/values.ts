import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * A time as a statement's timestamptz: a Date's ISO text, or a placeholder (or any expression)
 * of a statement built once and prepared (db/prepared.ts), whose value is then an ISO text.
 */
export function timestamptz(value: Date | SQLWrapper): SQL {
  return sql`${value instanceof Date ? value.toISOString() : value}::timestamptz`;
}

/**
 * The rows a raw statement (db.execute) answered: both drivers answer { rows } (node-postgres's
 * QueryResult, PGlite's Results), and the Database type leaves the driver's result type open.
 */
export function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}
