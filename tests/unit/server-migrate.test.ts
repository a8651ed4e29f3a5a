import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, pgliteMigrationTarget } from '../../src/server/db/index.js';
import { migrate, readMigrations } from '../../src/server/db/migrate.js';
import { maintenanceWindows } from '../../src/server/db/schema.js';

describe('migrator', () => {
  let client: PGlite | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('applies files in order, once', async () => {
    client = await PGlite.create();
    const target = pgliteMigrationTarget(client);
    const files = [
      { name: '0001_a.sql', sql: 'CREATE TABLE a (id int); INSERT INTO a VALUES (1);' },
      { name: '0002_b.sql', sql: 'ALTER TABLE a ADD COLUMN b text; UPDATE a SET b = $$x;y$$;' },
    ];
    expect(await migrate(target, files)).toEqual(['0001_a.sql', '0002_b.sql']);
    expect(await migrate(target, files)).toEqual([]);
    expect((await client.query('SELECT id, b FROM a')).rows).toEqual([{ id: 1, b: 'x;y' }]);
  });

  it('leaves nothing of a failing file and records it as not applied', async () => {
    client = await PGlite.create();
    const target = pgliteMigrationTarget(client);
    await expect(
      migrate(target, [{ name: '0001_bad.sql', sql: 'CREATE TABLE half (id int); SELECT no_such_function();' }]),
    ).rejects.toThrow();
    expect((await client.query(`SELECT to_regclass('half') AS t`)).rows).toEqual([{ t: null }]);
    expect((await client.query('SELECT name FROM schema_migrations')).rows).toEqual([]);
  });

  it('keeps a PGlite database in DATA_DIR/pglite across restarts', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kouza-db-'));
    const first = await openDatabase({ dataDir: dir, databaseUrl: null });
    await first.db.insert(maintenanceWindows).values({ startedAt: new Date(0), endedAt: new Date(1000) });
    await first.close();
    const second = await openDatabase({ dataDir: dir, databaseUrl: null });
    expect(await second.db.select({ id: maintenanceWindows.id }).from(maintenanceWindows)).toHaveLength(1);
    await second.close();
  });

  it('moves the stored branch and seal choices into form documents (0005) and drops their columns', async () => {
    client = await PGlite.create();
    const target = pgliteMigrationTarget(client);
    const files = await readMigrations();
    const before = files.filter((file) => file.name < '0005');
    await migrate(target, before);
    const insert = `INSERT INTO applications (id, bank_code, application_type, mail_address, branch_code, branch_name, seal_less, updated_at)
      VALUES ($1, '0177', 'GENERAL', 'a@example.com', $2, $3, $4, '2026-01-02T03:04:05Z')`;
    await client.query(insert, ['00000000-0000-4000-8000-000000000001', '001', '本店営業部', true]);
    await client.query(insert, ['00000000-0000-4000-8000-000000000002', null, null, false]);
    await client.query(insert, ['00000000-0000-4000-8000-000000000003', null, null, null]);
    expect(await migrate(target, files)).toEqual(files.filter((file) => file.name >= '0005').map((file) => file.name));
    const documents = await client.query('SELECT application_id, form, answers FROM application_forms ORDER BY application_id, form');
    expect(documents.rows).toEqual([
      { application_id: '00000000-0000-4000-8000-000000000001', form: 'branch', answers: { branchCode: '001', branchName: '本店営業部' } },
      { application_id: '00000000-0000-4000-8000-000000000001', form: 'sealLess', answers: { sealLess: true } },
      { application_id: '00000000-0000-4000-8000-000000000002', form: 'sealLess', answers: { sealLess: false } },
    ]);
    const columns = await client.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'applications' AND column_name IN ('branch_code', 'branch_name', 'seal_less')`);
    expect(columns.rows).toEqual([]);
  });
});
