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

/** The NUL-terminated string of `bytes` from `start`, and where the next field begins. */
function cString(bytes: Uint8Array, start: number): [string, number] {
  const end = bytes.indexOf(0, start);
  return [Buffer.from(bytes.subarray(start, end)).toString('utf8'), end + 1];
}

/**
 * The server's named statements on PGlite (db/pglite-named-statements.ts) go to PGlite as wire
 * protocol messages: a Parse names a text once, and each Bind of a named statement is one run
 * of it. PGlite's own query() binds the unnamed statement, counted with query().
 */
function countNamedStatements(target: object, note: (sql: string) => void): void {
  const textOf = new Map<string, string>();
  const methods = target as Record<string, Method>;
  const original = methods.execProtocolStream;
  if (typeof original !== 'function') throw new Error('no method execProtocolStream to count');
  methods.execProtocolStream = function (this: unknown, ...args: unknown[]) {
    const message = args[0];
    if (message instanceof Uint8Array) {
      const [name, next] = cString(message, 5);
      if (message[0] === 0x50 && name) textOf.set(name, cString(message, next)[0]);
      if (message[0] === 0x42) {
        const statement = cString(message, next)[0];
        if (statement) note(textOf.get(statement) ?? statement);
      }
    }
    return original.apply(this, args);
  };
}

/**
 * PGlite: query and exec on `target` (an instance, or PGlite.prototype for every instance), the
 * query and exec of the object a transaction hands its callback, and named statements' runs.
 */
export function countPgliteStatements(target: Pick<PGlite, 'query' | 'exec' | 'transaction' | 'execProtocolStream'>, note: (sql: string) => void): void {
  wrap(target, 'query', note, asText);
  wrap(target, 'exec', note, asText);
  countNamedStatements(target, note);
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
