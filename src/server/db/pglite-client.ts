import { types, type PGlite, type Transaction } from '@electric-sql/pglite';
import { NamedStatements } from './pglite-named-statements.js';

/**
 * The parsers drizzle's PGlite driver hands to every query (drizzle-orm/pglite/session.js): dates,
 * times and intervals, and their arrays, come back as PostgreSQL's text for drizzle's columns to
 * map. Keep in step with drizzle when it is upgraded (tests/api/db.test.ts checks what comes
 * back on both databases).
 */
const TEXT_AS_IS = (value: string) => value;
export const DRIZZLE_PARSERS: Record<number, (value: string) => string> = {
  [types.TIMESTAMP]: TEXT_AS_IS,
  [types.TIMESTAMPTZ]: TEXT_AS_IS,
  [types.INTERVAL]: TEXT_AS_IS,
  [types.DATE]: TEXT_AS_IS,
  1231: TEXT_AS_IS, // numeric[]
  1115: TEXT_AS_IS, // timestamp[]
  1185: TEXT_AS_IS, // timestamptz[]
  1187: TEXT_AS_IS, // interval[]
  1182: TEXT_AS_IS, // date[]
};

type Query = PGlite['query'];
type QueryOptions = Parameters<Query>[2];

/**
 * The options without their parsers when they are drizzle's (the client's own, set once, are
 * the same); any others are kept, and cost the copy.
 */
function withoutParsers(options: QueryOptions): QueryOptions {
  const parsers = options?.parsers;
  if (parsers === undefined || !Object.keys(parsers).every((type) => type in DRIZZLE_PARSERS)) return options;
  const { parsers: _sameAsTheClients, ...rest } = options ?? {};
  return rest;
}

/** `target` (the client, or a transaction of it) whose query() runs statements named. */
function wrap<T extends PGlite | Transaction>(target: T, named: NamedStatements, inTransaction: boolean): T {
  const query = async (text: string, params?: unknown[], options?: QueryOptions) => {
    // As PGlite's own: a transaction's object runs nothing once it ended (it would run in
    // whichever transaction is open then).
    if (inTransaction && (target as Transaction).closed) throw new Error('Transaction is closed');
    const own = withoutParsers(options);
    return named.accepts(text) ? named.query(text, params, own, inTransaction) : target.query(text, params, own);
  };
  const transaction = <R>(run: (tx: Transaction) => Promise<R>) => (target as PGlite).transaction((tx) => run(wrap(tx, named, true)));
  return new Proxy(target, {
    get(object, key) {
      if (key === 'query') return query;
      if (key === 'transaction' && !inTransaction) return transaction;
      // PGlite keeps its state in private fields: its methods must run on the object itself.
      const value: unknown = Reflect.get(object, key, object);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
  });
}

const namedOf = new WeakMap<PGlite, NamedStatements>();

/**
 * The PGlite client drizzle is given.
 * - PGlite merges a query's own parsers into all of its parsers (one per type, arrays included:
 *   a few hundred) by copying the lot, on every query, and drizzle passes its parsers with every
 *   query: under load that copy was 8 % of the server's CPU on the embedded database
 *   (bench/profile-summary.ts). The client gets drizzle's parsers once, and drizzle's queries
 *   reach it without them: the same results, no copy. (Nothing may call the client's
 *   refreshArrayTypes(): it would set the array parsers among them anew.)
 * - Each statement text runs as a named statement (NamedStatements).
 */
export function clientForDrizzle(client: PGlite): PGlite {
  Object.assign(client.parsers, DRIZZLE_PARSERS);
  // One set of names per client: two wrappers of one client would parse the same names.
  let named = namedOf.get(client);
  if (!named) namedOf.set(client, (named = new NamedStatements(client)));
  return wrap(client, named, false);
}
