import { and, eq, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database } from '../db/index.js';
import { oidcStandinStore } from '../db/schema.js';

/**
 * Where the stand-in OpenID provider (oidc-standin.ts) keeps its sessions, interactions, grants,
 * codes and tokens: oidc-provider's `adapter`, one row per (model, id) in oidc_standin_store
 * (migration 0024) instead of its memory adapter, because several server processes share state
 * through PostgreSQL only and a restart must not lose an authorization under way. Whichever
 * process the browser or the relying party reaches finds what another one stored.
 *
 * As oidc-provider's memory adapter does: `expiresIn` (seconds) bounds a row's life, a row past
 * it is not found (the database's clock decides, the same for every process) and is deleted by
 * sweepExpiredStandinRows (the hourly retention job); the grant id is indexed for the models
 * that belong to a grant (revokeByGrantId), the uid for sessions, the user code where there is
 * one; `consume` marks a row used (a spent authorization code is then refused by the provider).
 */

const grantable = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);

const notExpired = or(isNull(oidcStandinStore.expiresAt), sql`${oidcStandinStore.expiresAt} > now()`);

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

export class StandinStore implements Adapter {
  constructor(
    private readonly db: Database,
    private readonly model: string,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const indexed = {
      payload: payload as Record<string, unknown>,
      grantId: grantable.has(this.model) ? text(payload.grantId) : null,
      uid: this.model === 'Session' ? text(payload.uid) : null,
      userCode: text(payload.userCode),
      // The database's clock, as for reading: processes whose clocks differ still agree.
      expiresAt: typeof expiresIn === 'number' ? sql`now() + ${expiresIn}::double precision * interval '1 second'` : null,
      consumedAt: null,
    };
    await this.db
      .insert(oidcStandinStore)
      .values({ model: this.model, id, ...indexed })
      .onConflictDoUpdate({ target: [oidcStandinStore.model, oidcStandinStore.id], set: indexed });
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return this.findWhere(eq(oidcStandinStore.id, id));
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findWhere(eq(oidcStandinStore.uid, uid));
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findWhere(eq(oidcStandinStore.userCode, userCode));
  }

  async consume(id: string): Promise<void> {
    await this.db.update(oidcStandinStore).set({ consumedAt: sql`now()` }).where(and(eq(oidcStandinStore.model, this.model), eq(oidcStandinStore.id, id)));
  }

  async destroy(id: string): Promise<void> {
    await this.db.delete(oidcStandinStore).where(and(eq(oidcStandinStore.model, this.model), eq(oidcStandinStore.id, id)));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    // Every code and token of the grant, whichever model asks (as the memory adapter does).
    await this.db.delete(oidcStandinStore).where(eq(oidcStandinStore.grantId, grantId));
  }

  /** The payload of this model's one live row matching `where`, with `consumed` (epoch seconds) once consumed. */
  private async findWhere(where: SQL): Promise<AdapterPayload | undefined> {
    const [row] = await this.db
      .select({ payload: oidcStandinStore.payload, consumedAt: oidcStandinStore.consumedAt })
      .from(oidcStandinStore)
      .where(and(eq(oidcStandinStore.model, this.model), where, notExpired))
      .limit(1);
    if (!row) return undefined;
    const payload = row.payload as AdapterPayload;
    return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
  }
}

/** oidc-provider's `adapter` option: one store per model, all in the database. */
export function standinStores(db: Database): (model: string) => Adapter {
  return (model) => new StandinStore(db, model);
}

/** Deletes the rows past their expiry (the retention job, every process each hour); returns how many. */
export async function sweepExpiredStandinRows(db: Database): Promise<number> {
  const deleted = await db
    .delete(oidcStandinStore)
    .where(and(isNotNull(oidcStandinStore.expiresAt), lte(oidcStandinStore.expiresAt, sql`now()`)))
    .returning({ id: oidcStandinStore.id });
  return deleted.length;
}

/**
 * Makes the stand-in's session `sessionId`, and the interaction `interactionId` under way in it,
 * forget who logged in (the account and the grants it gave), keeping the session itself: the
 * Digital Agency's app reads the card on every check, so a new check may name another card
 * holder, without oidc-provider first logging the old one out (a page of its own that needs
 * script) or refusing the interaction because the session's principal changed. The session
 * keeps its uid, which the interaction is bound to.
 */
export async function forgetCardHolder(db: Database, sessionId: string, interactionId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(oidcStandinStore)
      .set({ payload: sql`${oidcStandinStore.payload} - 'accountId' - 'loginTs' - 'amr' - 'acr' - 'authorizations'` })
      .where(and(eq(oidcStandinStore.model, 'Session'), eq(oidcStandinStore.id, sessionId)));
    await tx
      .update(oidcStandinStore)
      .set({ payload: sql`${oidcStandinStore.payload} #- '{session,accountId}' #- '{session,acr}' #- '{session,amr}'` })
      .where(and(eq(oidcStandinStore.model, 'Interaction'), eq(oidcStandinStore.id, interactionId)));
  });
}
