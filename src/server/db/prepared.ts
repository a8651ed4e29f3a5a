import type { Database } from './index.js';

/**
 * Statements built once per database (a test opens several) instead of on every call: drizzle
 * builds a statement's SQL anew each time it runs, which under load was a large share of the
 * server's CPU for the statements of every request (bench/profile-summary.ts). `build` makes
 * them with drizzle's `.prepare(name)` and `sql.placeholder(...)` for what changes per call; on
 * PostgreSQL they run as named statements, parsed once per connection.
 */
export function oncePerDatabase<T>(build: (db: Database) => T): (db: Database) => T {
  const built = new WeakMap<Database, T>();
  return (db) => {
    let statements = built.get(db);
    if (statements === undefined) {
      statements = build(db);
      built.set(db, statements);
    }
    return statements;
  };
}
