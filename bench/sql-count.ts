import type { PGlite, Transaction } from '@electric-sql/pglite';

/**
 * Counting the SQL statements a server sends, for the benches: wraps the methods that send
 * them, on one client (bench/form-steps.ts, in process) or on a driver's prototype (the probe
 * that bench/load.ts preloads into a server process). BEGIN and COMMIT/ROLLBACK count as
 * statements on both drivers, as PostgreSQL sees them.
 */

type Method = (this: unknown, ...args: unknown[]) => unknown;

/** Replaces target[name] by a function that calls note(first argument) and then the original. */
function wrap(target: object, name: string, note: (sql: string) => void, textOf: (first: unknown) => string): void {
  const methods = target as Record<string, Method>;
  const original = methods[name];
  if (typeof original !== 'function') throw new Error(`no method ${name} to count`);
  methods[name] = function (this: unknown, ...args: unknown[]) {
    note(textOf(args[0]));
    return original.apply(this, args);
  };
}

const asText = (first: unknown): string => (typeof first === 'string' ? first : String((first as { text?: unknown } | null)?.text ?? first));

/**
 * PGlite: query and exec on `target` (an instance, or PGlite.prototype for every instance), and
 * the query and exec of the object a transaction hands its callback.
 */
export function countPgliteStatements(target: Pick<PGlite, 'query' | 'exec' | 'transaction'>, note: (sql: string) => void): void {
  wrap(target, 'query', note, asText);
  wrap(target, 'exec', note, asText);
  const transaction = target.transaction;
  (target as { transaction: unknown }).transaction = function <T>(this: PGlite, run: (tx: Transaction) => Promise<T>) {
    return transaction.call(this, (tx: Transaction) => {
      note('BEGIN');
      const counted = Object.create(tx) as Transaction;
      wrap(counted, 'query', note, asText);
      wrap(counted, 'exec', note, asText);
      return run(counted).finally(() => note('COMMIT/ROLLBACK'));
    });
  };
}

/**
 * node-postgres: Client.prototype.query, through which a pool's queries and a pooled
 * connection's (transactions) all go, each once.
 */
export function countPgStatements(clientPrototype: object, note: (sql: string) => void): void {
  wrap(clientPrototype, 'query', note, asText);
}
