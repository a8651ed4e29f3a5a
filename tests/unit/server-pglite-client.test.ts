import { PGlite } from '@electric-sql/pglite';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientForDrizzle } from '../../src/server/db/pglite-client.js';

/**
 * The PGlite client drizzle is given (ADR 0044): each text runs as a named statement, with the
 * same results as PGlite's own query(), its locking, and its errors. The whole API suite runs
 * through it too; these are the cases the suite does not reach on purpose.
 */
describe('PGlite client for drizzle', () => {
  let raw: PGlite;
  let client: PGlite;
  beforeEach(async () => {
    raw = await PGlite.create();
    await raw.exec(`CREATE TABLE t (id int PRIMARY KEY, name text, doc jsonb, data bytea, at timestamptz, flags int[], ok boolean)`);
    client = clientForDrizzle(raw);
  });
  afterEach(async () => {
    await raw.close();
  });

  it('answers what PGlite answers, in both row modes, with the affected rows', async () => {
    const insert = 'INSERT INTO t VALUES ($1, $2, $3, $4, $5, $6, $7), ($8, $9, $10, $11, $12, $13, $14)';
    const values = [1, 'あ', JSON.stringify({ a: [1] }), new Uint8Array([0, 255]), '2027-01-15T00:00:00Z', [1, 2], true];
    const written = await client.query(insert, [...values, 2, null, null, null, null, null, false]);
    expect(written.affectedRows).toBe(2);
    const select = 'SELECT id, name, doc, data, at, flags, ok FROM t ORDER BY id';
    for (const rowMode of ['array', 'object'] as const) {
      const ours = await client.query(select, [], { rowMode });
      const plain = await raw.query(select, [], { rowMode });
      expect(ours.rows).toEqual(plain.rows);
      expect(ours.fields).toEqual(plain.fields);
    }
    const [first] = (await client.query<{ at: unknown; data: unknown }>(select)).rows;
    // drizzle's parsers: the time as PostgreSQL's text, for drizzle to map.
    expect(first?.at).toBe('2027-01-15 00:00:00+00');
    expect(first?.data).toEqual(new Uint8Array([0, 255]));
    const update = 'UPDATE t SET ok = true WHERE id > $1';
    const { rows: _ours, fields: _ourFields, ...ourCounts } = await client.query(update, [0]);
    const { rows: _plain, fields: _plainFields, ...plainCounts } = await raw.query(update, [0]);
    expect(ourCounts).toEqual({ affectedRows: 2, command: 'UPDATE', rowCount: 2 });
    expect(ourCounts).toEqual(plainCounts);
  });

  it('throws PostgreSQL errors with their SQLSTATE and goes on', async () => {
    await client.query('INSERT INTO t (id) VALUES ($1)', [1]);
    await expect(client.query('INSERT INTO t (id) VALUES ($1)', [1])).rejects.toMatchObject({ code: '23505' });
    await expect(client.query('SELEC 1')).rejects.toMatchObject({ code: '42601' });
    expect((await client.query('SELECT count(*)::int AS n FROM t')).rows).toEqual([{ n: 1 }]);
  });

  it('parses a text again once its columns changed or it was dropped, and closes the old one', async () => {
    await client.query('INSERT INTO t (id) VALUES (1)');
    const select = 'SELECT * FROM t';
    const named = async () => (await raw.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1', [select])).rows[0]?.n;
    expect(Object.keys((await client.query<object>(select)).rows[0] ?? {})).toHaveLength(7);
    await client.query('ALTER TABLE t ADD COLUMN extra text');
    // Outside a transaction nothing ran when the Bind failed: parsed again and run.
    expect(Object.keys((await client.query<object>(select)).rows[0] ?? {})).toHaveLength(8);
    expect(await named()).toBe(1);
    await raw.exec('DEALLOCATE ALL');
    expect((await client.query(select)).rows).toHaveLength(1);
    expect(await named()).toBe(1);
    // Inside a transaction the failed Bind has ended it: the caller learns it.
    await client.query('ALTER TABLE t DROP COLUMN extra');
    await expect(client.transaction((tx) => tx.query(select))).rejects.toMatchObject({ code: '0A000' });
    expect(Object.keys((await client.query<object>(select)).rows[0] ?? {})).toHaveLength(7);
  });

  it('refuses the object of a transaction that ended', async () => {
    let ended: { query: PGlite['query'] } | undefined;
    await client.transaction(async (tx) => {
      ended = tx;
    });
    await expect(ended?.query('INSERT INTO t (id) VALUES (1)')).rejects.toThrow('Transaction is closed');
    expect((await client.query('SELECT id FROM t')).rows).toEqual([]);
  });

  it('shares its statement names between two wrappers of one client', async () => {
    const other = clientForDrizzle(raw);
    expect((await client.query('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
    expect((await other.query('SELECT 2 AS n')).rows).toEqual([{ n: 2 }]);
  });

  it('keeps a query outside a transaction out of it, and rolls a failed transaction back', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = client.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id) VALUES ($1)', [1]);
      await held;
      await tx.query('UPDATE t SET name = $1 WHERE id = $2', ['done', 1]);
    });
    const outside = client.query<{ name: string | null }>('SELECT name FROM t WHERE id = $1', [1]);
    release();
    await transaction;
    expect((await outside).rows).toEqual([{ name: 'done' }]);

    await expect(
      client.transaction(async (tx) => {
        await tx.query('INSERT INTO t (id) VALUES ($1)', [2]);
        await tx.query('INSERT INTO t (id) VALUES ($1)', [1]);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect((await client.query('SELECT id FROM t ORDER BY id')).rows).toEqual([{ id: 1 }]);
  });

  it('hears notifications sent by its statements', async () => {
    const heard: string[] = [];
    await raw.listen('changes', (payload) => heard.push(payload));
    await client.query("SELECT pg_notify('changes', $1)", ['x']);
    await vi.waitFor(() => expect(heard).toEqual(['x']));
  });

  it('leaves texts past its 500 to PGlite', async () => {
    const plain = vi.spyOn(raw, 'query');
    for (let n = 1; n <= 500; n += 1) await client.query(`SELECT ${n} AS n`);
    expect(plain).not.toHaveBeenCalled();
    expect((await client.query('SELECT 501 AS n')).rows).toEqual([{ n: 501 }]);
    expect(plain).toHaveBeenCalledTimes(1);
    expect((await client.query('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
    expect(plain).toHaveBeenCalledTimes(1);
  });
});
