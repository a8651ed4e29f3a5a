import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { oidcStandinStore } from '../../src/server/db/schema.js';
import { StandinStore, sweepExpiredStandinRows } from '../../src/server/ekyc/oidc-standin-store.js';
import { backends, testServerFor } from './helpers.js';

/** The stand-in OpenID provider's adapter (oidc-provider's contract) on both database backends. */
describe.each(backends)('the OpenID stand-in store ($name)', (backend) => {
  const server = testServerFor(backend);
  const store = (model: string) => new StandinStore(server.app.db, model);
  const expire = (model: string, id: string) =>
    server.app.db
      .update(oidcStandinStore)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(and(eq(oidcStandinStore.model, model), eq(oidcStandinStore.id, id)));

  it('finds what was stored, per model, until it expires, and the sweep deletes it then', async () => {
    const codes = store('AuthorizationCode');
    await codes.upsert('code-1', { grantId: 'grant-1', accountId: 'self.x', exp: 1 }, 60);
    expect(await codes.find('code-1')).toMatchObject({ grantId: 'grant-1', accountId: 'self.x' });
    expect(await store('AccessToken').find('code-1')).toBeUndefined();
    await expire('AuthorizationCode', 'code-1');
    expect(await codes.find('code-1')).toBeUndefined();
    // The server's own retention round, started when it became ready, may sweep it first: the row
    // must be gone either way, not counted by this call.
    await sweepExpiredStandinRows(server.app.db);
    const left = await server.app.db.select().from(oidcStandinStore).where(eq(oidcStandinStore.id, 'code-1'));
    expect(left).toEqual([]);
  });

  it('keeps a row without expiresIn, replaces it on upsert, marks it consumed, and destroys it', async () => {
    const interactions = store('Interaction');
    await interactions.upsert('i-1', { params: { state: 'a' } });
    await interactions.upsert('i-1', { params: { state: 'b' } }, 600);
    expect(await interactions.find('i-1')).toEqual({ params: { state: 'b' } });
    await interactions.consume('i-1');
    const consumed = await interactions.find('i-1');
    expect(typeof consumed?.consumed).toBe('number');
    // A new upsert is a new payload: not consumed any more (as in the memory adapter).
    await interactions.upsert('i-1', { params: { state: 'c' } }, 600);
    expect((await interactions.find('i-1'))?.consumed).toBeUndefined();
    await interactions.destroy('i-1');
    expect(await interactions.find('i-1')).toBeUndefined();
  });

  it('finds a session by its uid and a device code by its user code', async () => {
    await store('Session').upsert('s-1', { uid: 'uid-1', accountId: 'a' }, 600);
    expect(await store('Session').findByUid('uid-1')).toMatchObject({ accountId: 'a' });
    expect(await store('Session').findByUid('uid-2')).toBeUndefined();
    await store('DeviceCode').upsert('d-1', { userCode: 'ABCD-EFGH', grantId: 'g' }, 600);
    expect(await store('DeviceCode').findByUserCode('ABCD-EFGH')).toMatchObject({ userCode: 'ABCD-EFGH' });
  });

  it('revokes every code and token of a grant, and nothing of another', async () => {
    await store('AuthorizationCode').upsert('c-2', { grantId: 'grant-2' }, 60);
    await store('AccessToken').upsert('t-2', { grantId: 'grant-2' }, 600);
    await store('AccessToken').upsert('t-3', { grantId: 'grant-3' }, 600);
    await store('AccessToken').revokeByGrantId('grant-2');
    expect(await store('AuthorizationCode').find('c-2')).toBeUndefined();
    expect(await store('AccessToken').find('t-2')).toBeUndefined();
    expect(await store('AccessToken').find('t-3')).toMatchObject({ grantId: 'grant-3' });
  });
});
