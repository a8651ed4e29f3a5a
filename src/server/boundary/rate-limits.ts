import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Hasher } from '../crypto.js';
import type { Database } from '../db/index.js';
import { oncePerDatabase } from '../db/prepared.js';
import { rateLimits } from '../db/schema.js';
import { timestamptz } from '../db/values.js';

/**
 * The store of @fastify/rate-limit (its `store` option) kept in the database (migration 0010),
 * so that several server processes sharing one PostgreSQL share the limits too: with the
 * plugin's in-memory store each process would give a client the full limits again.
 *
 * One row per limit and key. A hit is one statement, INSERT ... ON CONFLICT DO UPDATE, which
 * starts a new window when the row's has ended and otherwise adds one, and returns the count
 * and the window's end: PostgreSQL's row lock makes concurrent hits from any process count
 * one by one. Two limits of one request can be hit in one statement too (hitTogether: the
 * register route's IP and address limits, ADR 0041). The window follows the app's clock (`app.now()`, which tests move). Rows whose
 * window has ended are deleted by one DELETE at most every SWEEP_INTERVAL_MS per process.
 *
 * The limit's name is its route ('POST /api/pin'), or the groupId of routes that share one; a limiter made with createRateLimit has no
 * route, so its keys must start with its name and a colon ('mail:<address HMAC>'). The key
 * itself is stored as an HMAC (hasher.rateLimitKey): the table holds no client IP.
 *
 * continueExceeding and exponentialBackoff are not implemented (no route uses them); asking for
 * them fails at start rather than silently counting otherwise.
 */

export interface RateLimitStoreDeps {
  db: Database;
  hasher: Pick<Hasher, 'rateLimitKey'>;
  now(): Date;
}

/** How often a process deletes the rows whose window has ended. */
export const SWEEP_INTERVAL_MS = 10 * 60_000;

/** hits is int4; a key hammered past this stays at it (still over any limit). */
const MAX_HITS = 2_147_483_647;

type Result = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Result) => void;

/** What child() receives: the merged limit options and, for a route's limit, the route. */
interface ChildOptions {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  routeInfo?: { method?: string | string[]; url?: string };
  /** Routes that share one limit (the plugin's groupId): counted under this name. */
  groupId?: string;
}

interface Shared extends RateLimitStoreDeps {
  nextSweep: number;
}

/** A hit on one limit: the row's name, its key as stored (an HMAC), and the window a new count starts. */
export interface LimitHit {
  name: string;
  key: string;
  timeWindow: number;
}

/**
 * The two statements of a hit, built once per database and prepared (db/prepared.ts): every
 * register, verify and PIN request runs one. Placeholders: name, key, windowEndsAt (the end of
 * a window that starts now, ISO) and now (ISO); the joined one also thenName, thenKey,
 * thenWindowEndsAt and unlessFirstOver. A row whose window has ended starts a new one, else
 * counts one more.
 */
const hitStatementsOf = oncePerDatabase((db) => {
  const now = timestamptz(sql.placeholder('now'));
  const ended = sql`${rateLimits.windowEndsAt} <= ${now}`;
  const conflict = {
    target: [rateLimits.name, rateLimits.key],
    set: {
      hits: sql`CASE WHEN ${ended} THEN 1 ELSE LEAST(${rateLimits.hits} + 1, ${MAX_HITS}) END`,
      windowEndsAt: sql`CASE WHEN ${ended} THEN excluded.window_ends_at ELSE ${rateLimits.windowEndsAt} END`,
    },
  };
  const counts = { hits: rateLimits.hits, windowEndsAt: rateLimits.windowEndsAt };
  const firstHit = () =>
    db
      .insert(rateLimits)
      .values({ name: sql`${sql.placeholder('name')}`, key: sql`${sql.placeholder('key')}`, hits: 1, windowEndsAt: timestamptz(sql.placeholder('windowEndsAt')) })
      .onConflictDoUpdate(conflict)
      .returning(counts);
  const firstCounted = db.$with('first_hit').as(firstHit());
  // Typed here: a select's parameters have no column to take their type from.
  const thenHit = db.$with('then_hit').as(
    db
      .insert(rateLimits)
      .select((qb) =>
        qb
          .select({
            name: sql`${sql.placeholder('thenName')}::varchar`.as('name'),
            key: sql`${sql.placeholder('thenKey')}::varchar`.as('key'),
            hits: sql`1`.as('hits'),
            windowEndsAt: timestamptz(sql.placeholder('thenWindowEndsAt')).as('window_ends_at'),
          })
          .from(firstCounted)
          .where(lte(firstCounted.hits, sql`${sql.placeholder('unlessFirstOver')}::integer`)),
      )
      .onConflictDoUpdate(conflict)
      .returning(counts),
  );
  return {
    single: firstHit().prepare('rate_limit_hit'),
    joined: db
      .with(firstCounted, thenHit)
      .select({ hits: firstCounted.hits, windowEndsAt: firstCounted.windowEndsAt, thenHits: thenHit.hits, thenEndsAt: thenHit.windowEndsAt })
      .from(firstCounted)
      .leftJoin(thenHit, sql`true`)
      .prepare('rate_limit_hit_joined'),
  };
});

/**
 * Counts `first` and, in the same statement, `then` only while `first` stays within
 * `then.unlessFirstOver` (a request refused by its first limit does not use up the second):
 * PostgreSQL's row locks make concurrent hits from any process count one by one. The
 * register route's IP and address limits in one statement (ADR 0041); every other limit
 * through the store, with no `then`. Deletes the ended windows now and then.
 */
async function hitLimits(shared: Shared, first: LimitHit, then: (LimitHit & { unlessFirstOver: number }) | null): Promise<{ first: Result; then: Result | null }> {
  const now = shared.now();
  const statements = hitStatementsOf(shared.db);
  const windowEnd = (hit: LimitHit) => new Date(now.getTime() + hit.timeWindow).toISOString();
  const firstValues = { name: first.name, key: first.key, windowEndsAt: windowEnd(first), now: now.toISOString() };
  let counted: { hits: number; windowEndsAt: Date; thenHits: number | null; thenEndsAt: Date | null } | undefined;
  if (!then) {
    const [row] = await statements.single.execute(firstValues);
    counted = row && { ...row, thenHits: null, thenEndsAt: null };
  } else {
    [counted] = await statements.joined.execute({ ...firstValues, thenName: then.name, thenKey: then.key, thenWindowEndsAt: windowEnd(then), unlessFirstOver: then.unlessFirstOver });
  }
  if (!counted) throw new Error('the rate-limit upsert returned no row');
  await sweep(shared, now);
  const result = (hits: number, endsAt: Date): Result => ({ current: hits, ttl: Math.max(0, endsAt.getTime() - now.getTime()) });
  return {
    first: result(counted.hits, counted.windowEndsAt),
    then: counted.thenHits !== null && counted.thenEndsAt !== null ? result(counted.thenHits, counted.thenEndsAt) : null,
  };
}

/** Deletes the ended windows, at most once per SWEEP_INTERVAL_MS of this process. */
async function sweep(shared: Shared, now: Date): Promise<void> {
  if (now.getTime() < shared.nextSweep) return;
  shared.nextSweep = now.getTime() + SWEEP_INTERVAL_MS;
  await shared.db.delete(rateLimits).where(lte(rateLimits.windowEndsAt, now));
}

function routeName(options: ChildOptions): string | null {
  if (options.groupId) return options.groupId;
  const { method, url } = options.routeInfo ?? {};
  if (!method || !url) return null;
  return `${Array.isArray(method) ? method.join(',') : method} ${url}`;
}

class DatabaseRateLimitStore implements FastifyRateLimitStore {
  constructor(
    private readonly shared: Shared,
    /** null: the root store, or a createRateLimit limiter whose keys carry the name. */
    private readonly name: string | null,
  ) {}

  /** The row's name and key for the plugin's key. */
  private row(key: string): { name: string; key: string } {
    if (this.name !== null) return { name: this.name, key: this.shared.hasher.rateLimitKey(key) };
    const colon = key.indexOf(':');
    if (colon <= 0) throw new Error('a rate limit without a route needs keys of the form "<name>:<key>"');
    return { name: key.slice(0, colon), key: this.shared.hasher.rateLimitKey(key.slice(colon + 1)) };
  }

  incr(key: string, callback: Callback, timeWindow: number): void {
    this.hit(key, timeWindow).then(
      (result) => callback(null, result),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    );
  }

  /** The count without a hit (the plugin's `{ increment: false }`). */
  read(key: string, callback: Callback): void {
    this.peek(key).then(
      (result) => callback(null, result),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    );
  }

  // The plugin's types call the argument the route's options; it is the merged limit options
  // with the route under routeInfo (index.js, mergeParams), hence the narrowing.
  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    const options = routeOptions as unknown as ChildOptions;
    if (options.continueExceeding || options.exponentialBackoff) {
      throw new Error('the database rate-limit store implements neither continueExceeding nor exponentialBackoff');
    }
    return new DatabaseRateLimitStore(this.shared, routeName(options));
  }

  private async hit(key: string, timeWindow: number): Promise<Result> {
    const { first } = await hitLimits(this.shared, { ...this.row(key), timeWindow }, null);
    return first;
  }

  private async peek(key: string): Promise<Result> {
    const row = this.row(key);
    const now = this.shared.now();
    const rows = await this.shared.db
      .select({ hits: rateLimits.hits, windowEndsAt: rateLimits.windowEndsAt })
      .from(rateLimits)
      .where(and(eq(rateLimits.name, row.name), eq(rateLimits.key, row.key), gt(rateLimits.windowEndsAt, now)));
    const [found] = rows;
    return found ? { current: found.hits, ttl: found.windowEndsAt.getTime() - now.getTime() } : { current: 0, ttl: 0 };
  }

}

/** A limit counted outside the plugin: its name, the key as the request gives it (stored as an HMAC), its window and its maximum. */
export interface Limit {
  name: string;
  key: string;
  timeWindow: number;
  max: number;
}

export interface DatabaseRateLimits {
  /**
   * The `store` option of @fastify/rate-limit: the plugin constructs it itself (with its
   * options, which this store does not need), so the database and the clock come in through
   * this closure.
   */
  store: FastifyRateLimitStoreCtor;
  /**
   * Two limits of one request in one statement: `first` always, `then` (when given) only while
   * `first` is not exceeded. The counts as the plugin's store gives them.
   */
  hitTogether(first: Limit, then: Limit | null): Promise<{ first: Result; then: Result | null }>;
}

/** The database's rate limits: the plugin's store and the two-limit hit, sharing one sweep. */
export function databaseRateLimits(deps: RateLimitStoreDeps): DatabaseRateLimits {
  const shared: Shared = { ...deps, nextSweep: 0 };
  const stored = (limit: Limit): LimitHit => ({ name: limit.name, key: deps.hasher.rateLimitKey(limit.key), timeWindow: limit.timeWindow });
  return {
    store: class extends DatabaseRateLimitStore {
      constructor() {
        super(shared, null);
      }
    },
    hitTogether: (first, then) => hitLimits(shared, stored(first), then && { ...stored(then), unlessFirstOver: first.max }),
  };
}
