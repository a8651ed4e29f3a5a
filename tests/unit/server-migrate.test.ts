import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, pgliteMigrationTarget } from '../../src/server/db/index.js';
import { migrate } from '../../src/server/db/migrate.js';
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
});
