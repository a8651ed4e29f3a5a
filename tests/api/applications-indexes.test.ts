import { sql, type SQLWrapper } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { applications } from '../../src/server/db/schema.js';
import { rowsOf } from '../../src/server/db/values.js';
import { DAY_MS, expiredApplications, newestApplicationQuery } from '../../src/server/resume/applications.js';
import { backends, testServerFor } from './helpers.js';

/**
 * The indexes of `applications` (migration 0029, ADR 0047): the updates every step makes are
 * heap-only (no index entry written), and what the indexes still serve, resume's lookup and the
 * retention purge, reads the rows it wants and not the bank's others.
 */
describe.each(backends)('the indexes of applications ($name)', (backend) => {
  const server = testServerFor(backend);
  const APPLICATIONS = 3000;

  const run = async (statement: SQLWrapper) => rowsOf<Record<string, unknown>>(await server.app.db.execute(statement));
  const planOf = async (query: SQLWrapper) =>
    (await run(sql`explain (analyze, costs off, timing off, summary off) ${query}`)).map((row) => String(Object.values(row)[0])).join('\n');

  const addApplications = async () => {
    await run(
      sql.raw(`insert into applications (bank_code, application_type, mail_address, flow_version, created_at, updated_at)
        select (array['0177','0587','0181'])[1 + (i % 3)], 'GENERAL', 'index' || i || '@example.jp', 'v1', now(), now()
        from generate_series(1, ${APPLICATIONS}) i`),
    );
    // A delivered application's stub: the address's HMAC only.
    await run(sql.raw(`update applications set mail_address = null, mail_hash = 'stub-hash' where mail_address = 'index3@example.jp'`));
    await run(sql.raw('analyze applications'));
  };

  it('write a step\'s update of the row (updated_at, revision) as a heap-only tuple', async () => {
    await addApplications();
    const hotUpdates = await server.app.db.transaction(async (tx) => {
      // The first page's row: full but for the room fillfactor leaves.
      await tx.execute(sql.raw(`update applications set updated_at = now(), revision = revision + 1 where ctid = '(0,1)'`));
      return rowsOf<{ hot: number | string }>(await tx.execute(sql.raw(`select n_tup_hot_upd as hot from pg_stat_xact_user_tables where relid = 'applications'::regclass`)));
    });
    expect(Number(hotUpdates[0]?.hot)).toBe(1);
  });

  it('let resume find an address, or a stub by its HMAC, without reading the bank\'s other applications', async () => {
    const byAddress = await planOf(newestApplicationQuery(server.app.db, '0177', 'GENERAL', ' Index6@example.jp', 'no-such-hash'));
    const byStub = await planOf(newestApplicationQuery(server.app.db, '0177', 'GENERAL', 'nobody@example.jp', 'stub-hash'));
    for (const plan of [byAddress, byStub]) {
      expect(plan).not.toContain('Seq Scan');
      expect(plan).not.toMatch(/Rows Removed by (Index Recheck|Filter): \d{2,}/);
    }
    expect(byAddress).toMatch(/actual rows=1(\.00)? /);
    expect(byStub).toMatch(/actual rows=1(\.00)? /);
  });

  it('let the retention purge find the unfinished applications past their retention by index', async () => {
    const before = new Date(server.clock.now().getTime() - 30 * DAY_MS);
    const plan = await planOf(server.app.db.select({ id: applications.id }).from(applications).where(expiredApplications('0177', before)));
    expect(plan).toContain('applications_unfinished_created_idx');
    expect(plan).not.toMatch(/Rows Removed by Filter: \d{2,}/);
  });
});
