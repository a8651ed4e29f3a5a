import { types, type PGlite, type Transaction } from '@electric-sql/pglite';

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

type QueryOptions = Parameters<PGlite['query']>[2];
type Queryable = Pick<PGlite, 'query'> | Transaction;

/** The options without their parsers: the client's own, set once, are the same. */
function withoutParsers(options: QueryOptions): QueryOptions {
  if (options?.parsers === undefined) return options;
  const { parsers: _sameAsTheClients, ...rest } = options;
  return rest;
}

function wrap<T extends Queryable>(target: T, wrapTransaction: boolean): T {
  return new Proxy(target, {
    get(object, key) {
      if (key === 'query') return (query: string, params?: unknown[], options?: QueryOptions) => object.query(query, params, withoutParsers(options));
      if (wrapTransaction && key === 'transaction') {
        return <R>(run: (tx: Transaction) => Promise<R>) => (object as PGlite).transaction((tx) => run(wrap(tx, false)));
      }
      // PGlite keeps its state in private fields: its methods must run on the object itself.
      const value: unknown = Reflect.get(object, key, object);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
  });
}

/**
 * The PGlite client drizzle is given. PGlite merges a query's own parsers into all of its
 * parsers (one per type, arrays included: a few hundred) by copying the lot, on every query;
 * drizzle passes its parsers with every query. Under load that copy was 8 % of the server's
 * CPU on the embedded database (bench/profile-summary.ts). The client gets drizzle's parsers
 * once, and drizzle's queries reach it without them: the same results, no copy.
 */
export function clientForDrizzle(client: PGlite): PGlite {
  Object.assign(client.parsers, DRIZZLE_PARSERS);
  return wrap(client, true);
}
