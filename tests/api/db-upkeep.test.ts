import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../src/server/db/index.js';
import { upkeepRound } from '../../src/server/db/upkeep.js';

/**
 * The embedded database's autovacuum (db/upkeep.ts): PGlite runs none, so a table that grows
 * is analyzed by the upkeep round once its changes pass PostgreSQL's thresholds, and the
 * session check's cached plan then finds its application by its key instead of reading every
 * application of the bank.
 */
describe('the embedded database upkeep', () => {
  let opened: OpenedDatabase | null = null;
  afterEach(async () => {
    await opened?.close();
    opened = null;
  });

  const rowsOf = async (text: string) => ((await opened!.db.execute(sql.raw(text))) as unknown as { rows: Record<string, unknown>[] }).rows;
  const addApplications = async (count: number) => {
    await rowsOf(`insert into applications (bank_code, application_type, mail_address, flow_version, created_at, updated_at)
      select (array['0177','0587','0181'])[1 + (i % 3)], 'GENERAL', 'a' || i || '@example.jp', 'v1', now(), now() from generate_series(1, ${count}) i`);
    await rowsOf(`insert into auth_tokens (token_hash, application_id, created_at, last_seen_at, expires_at)
      select md5(id::text) || md5(id::text), id, now(), now(), now() + interval '1 day' from applications where id not in (select application_id from auth_tokens)`);
  };

  it('analyzes the tables that grew, once, and the session check then reads one application', async () => {
    opened = await openDatabase({ dataDir: ':memory:', databaseUrl: null });
    await addApplications(3);
    const [first] = await rowsOf("select t.token_hash from applications a join auth_tokens t on t.application_id = a.id where a.bank_code = '0177' limit 1");
    // The session check's join, prepared and run until its plan is the generic one, on tables nearly empty.
    await rowsOf(`prepare session_join(text, text) as select a.id from auth_tokens t join applications a on a.id = t.application_id where t.token_hash = $1 and a.bank_code = $2`);
    const run = `execute session_join('${String(first?.token_hash)}', '0177')`;
    for (let i = 0; i < 8; i += 1) await rowsOf(run);
    await addApplications(3000);

    const round = await upkeepRound(opened.db);
    expect(round.analyzed).toEqual(expect.arrayContaining(['applications', 'auth_tokens']));
    const stats = await rowsOf("select relname, last_analyze from pg_stat_user_tables where relname in ('applications', 'auth_tokens')");
    expect(stats.every((row) => row.last_analyze !== null)).toBe(true);
    expect((await upkeepRound(opened.db)).analyzed).toEqual([]);

    const plan = (await rowsOf(`explain (analyze, costs off, timing off, summary off) ${run}`)).map((row) => String(Object.values(row)[0])).join('\n');
    expect(plan).toContain('applications_pkey');
    expect(plan).not.toMatch(/Rows Removed by (Join )?Filter: \d{2,}/);
  });

  it('vacuums a table whose rows were updated many times over', async () => {
    opened = await openDatabase({ dataDir: ':memory:', databaseUrl: null });
    await addApplications(300);
    await upkeepRound(opened.db);
    for (let i = 0; i < 3; i += 1) await rowsOf(`update auth_tokens set last_seen_at = now()`);
    expect((await upkeepRound(opened.db)).vacuumed).toContain('auth_tokens');
  });
});
