import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, pgliteMigrationTarget } from '../../src/server/db/index.js';
import { migrate, readMigrations, type MigrationTarget } from '../../src/server/db/migrate.js';
import { copyPgliteTemplate, pgliteTemplateDir, pgliteTemplatePath } from '../../src/server/db/pglite-template.js';
import { documents, maintenanceWindows } from '../../src/server/db/schema.js';
import { importDocumentFiles } from '../../src/server/uploads/import-files.js';
import { readDocument } from '../../src/server/uploads/store.js';

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

  it('opens one transaction on a restart, when every file is already recorded', async () => {
    client = await PGlite.create();
    const inner = pgliteMigrationTarget(client);
    let transactions = 0;
    const counting: MigrationTarget = {
      transaction: (run) => {
        transactions += 1;
        return inner.transaction(run);
      },
    };
    const files = [
      { name: '0001_a.sql', sql: 'CREATE TABLE a (id int);' },
      { name: '0002_b.sql', sql: 'CREATE TABLE b (id int);' },
    ];
    await migrate(counting, files.slice(0, 1));
    transactions = 0;
    expect(await migrate(counting, files)).toEqual(['0002_b.sql']);
    expect(transactions).toBe(2);
    transactions = 0;
    expect(await migrate(counting, files)).toEqual([]);
    expect(transactions).toBe(1);
  });

  it('names the PGlite template by the migrations, so an edited or added file finds none', () => {
    const files = [{ name: '0001_a.sql', sql: 'CREATE TABLE a (id int);' }];
    expect(pgliteTemplatePath(files)).toBe(pgliteTemplatePath([{ ...files[0]! }]));
    expect(pgliteTemplatePath(files)).not.toBe(pgliteTemplatePath([{ name: '0001_a.sql', sql: 'CREATE TABLE a (id bigint);' }]));
    expect(pgliteTemplatePath(files)).not.toBe(pgliteTemplatePath([...files, { name: '0002_b.sql', sql: '' }]));
  });

  it('gives a new DATA_DIR a copy of the template folder, renamed into place, and leaves a folder with files alone', async () => {
    // A template of migrations of this test's own, so the copy is checked without a build.
    const files = [{ name: '0001_copy.sql', sql: `-- ${process.pid} ${Date.now()}` }];
    const template = pgliteTemplateDir(files);
    await mkdir(path.join(template, 'base'), { recursive: true });
    await writeFile(path.join(template, 'PG_VERSION'), '17\n');
    await writeFile(path.join(template, 'base', 'file'), 'template');
    dir = await mkdtemp(path.join(tmpdir(), 'kouza-db-'));
    try {
      const target = path.join(dir, 'pglite');
      expect(await copyPgliteTemplate(files, target)).toBe(true);
      expect(await readFile(path.join(target, 'base', 'file'), 'utf8')).toBe('template');
      expect(await readdir(dir)).toEqual(['pglite']);
      await writeFile(path.join(target, 'base', 'file'), 'written since');
      expect(await copyPgliteTemplate(files, target)).toBe(false);
      expect(await readFile(path.join(target, 'base', 'file'), 'utf8')).toBe('written since');
      await mkdir(path.join(dir, 'empty'));
      expect(await copyPgliteTemplate(files, path.join(dir, 'empty'))).toBe(true);
      expect(await copyPgliteTemplate([{ name: '0001_none.sql', sql: 'no template' }], path.join(dir, 'none'))).toBe(false);
    } finally {
      await rm(template, { recursive: true, force: true });
    }
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

  it('moves the stored personal step into its form document (0006) and drops its columns', async () => {
    client = await PGlite.create();
    const target = pgliteMigrationTarget(client);
    const files = await readMigrations();
    await migrate(target, files.filter((file) => file.name < '0006'));
    const insert = `INSERT INTO applications (id, bank_code, application_type, mail_address, last_name, first_name, kana_last_name, kana_first_name,
        gender, birthday, era_birthday, mobile_phone_number, phone_number, postal_number, address_code, address_prefecture, address,
        temp_address_prefecture, temp_address, utilization_purpose, utilization_purpose_other, updated_at)
      VALUES ($1, '0177', 'GENERAL', 'a@example.com', '山田', '花子', 'ﾔﾏﾀﾞ', 'ﾊﾅｺ', 'WOMAN', '1990-05-01', '平成2年5月1日', '090-1357-2468',
        NULL, '8100001', $2, $3, $4, $5, $6, $7, $8, '2026-01-02T03:04:05Z')`;
    await client.query(insert, ['00000000-0000-4000-8000-000000000001', '8100001-0a1b2c3d', '福岡県', '福岡県福岡市中央区天神', null, null, 'LIVING,OTHER', '仕送り']);
    await client.query(insert, ['00000000-0000-4000-8000-000000000002', null, null, null, '熊本県', '熊本市中央区水前寺6丁目', 'SALARY', null]);
    await client.query(`INSERT INTO applications (id, bank_code, application_type, mail_address) VALUES ('00000000-0000-4000-8000-000000000003', '0177', 'GENERAL', 'b@example.com')`);
    expect(await migrate(target, files)).toEqual(files.filter((file) => file.name >= '0006').map((file) => file.name));
    const documents = await client.query<{ application_id: string; answers: Record<string, unknown> }>(
      `SELECT application_id, answers FROM application_forms WHERE form = 'personal' ORDER BY application_id`,
    );
    const person = { lastName: '山田', firstName: '花子', kanaLastName: 'ﾔﾏﾀﾞ', kanaFirstName: 'ﾊﾅｺ', gender: 'WOMAN', birthday: '1990-05-01', eraBirthday: '平成2年5月1日', mobilePhoneNumber: '090-1357-2468', postalNumber: '8100001' };
    expect(documents.rows).toEqual([
      {
        application_id: '00000000-0000-4000-8000-000000000001',
        answers: { ...person, noMatchingAddress: false, addressCode: '8100001-0a1b2c3d', addressPrefecture: '福岡県', address: '福岡県福岡市中央区天神', utilizationPurpose: ['LIVING', 'OTHER'], utilizationPurposeOther: '仕送り' },
      },
      {
        application_id: '00000000-0000-4000-8000-000000000002',
        answers: { ...person, noMatchingAddress: true, tempAddressPrefecture: '熊本県', tempAddress: '熊本市中央区水前寺6丁目', utilizationPurpose: ['SALARY'] },
      },
    ]);
    const columns = await client.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'applications' AND column_name IN ('last_name', 'birthday', 'distance_transaction_reason')`);
    expect(columns.rows).toEqual([]);
  });

  it('moves the stored workplace step into its form document (0007), with whether the applied workplace permits another account, and drops its columns', async () => {
    client = await PGlite.create();
    const target = pgliteMigrationTarget(client);
    const files = await readMigrations();
    await migrate(target, files.filter((file) => file.name < '0007'));
    await client.query(`INSERT INTO workplaces (bank_code, id, code, name, phone_number, multiple_accounts) VALUES ('0177', 7, 'AB1234', '株式会社テスト', '092-123-4567', 'PERMITTED')`);
    const insert = `INSERT INTO applications (id, bank_code, application_type, mail_address, occupation_id, occupation_name, occupation_other, workplace_id,
        workplace_code, workplace_name, workplace_phone_number, invitation_code, existed_account_branch_code, existed_account_number, updated_at)
      VALUES ($1, '0177', $2, 'a@example.com', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, '2026-01-02T03:04:05Z')`;
    await client.query(insert, ['00000000-0000-4000-8000-000000000001', 'GENERAL', 1, '会社員', null, 7, 'AB1234', '株式会社テスト', '092-123-4567', null, '001', '0000001']);
    await client.query(insert, ['00000000-0000-4000-8000-000000000002', 'CHILD', 9, 'その他', '家業の手伝い', null, null, null, null, 'FBK001', null, null]);
    await client.query(insert, ['00000000-0000-4000-8000-000000000003', 'GENERAL', null, null, null, null, null, null, null, null, null, null]);
    expect(await migrate(target, files)).toEqual(files.filter((file) => file.name >= '0007').map((file) => file.name));
    const documents = await client.query<{ application_id: string; answers: Record<string, unknown> }>(
      `SELECT application_id, answers FROM application_forms WHERE form = 'workplace' ORDER BY application_id`,
    );
    expect(documents.rows).toEqual([
      {
        application_id: '00000000-0000-4000-8000-000000000001',
        answers: {
          occupationId: 1,
          occupationName: '会社員',
          workplaceId: 7,
          workplaceCode: 'AB1234',
          workplaceName: '株式会社テスト',
          workplacePhoneNumber: '092-123-4567',
          multipleAccountsPermitted: true,
          existedAccountBranchCode: '001',
          existedAccountNumber: '0000001',
        },
      },
      { application_id: '00000000-0000-4000-8000-000000000002', answers: { occupationId: 9, occupationName: 'その他', occupationOther: '家業の手伝い', invitationCode: 'FBK001' } },
    ]);
    const columns = await client.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'applications' AND column_name LIKE ANY (ARRAY['occupation%', 'workplace%', 'existed%', 'invitation%'])`);
    expect(columns.rows).toEqual([]);
  });

  it('moves the stored parents into the parent page\'s two documents (0008), birthday as YYYY-MM-DD and nulls left out, and drops application_parents', async () => {
    client = await PGlite.create();
    const target = pgliteMigrationTarget(client);
    const files = await readMigrations();
    await migrate(target, files.filter((file) => file.name < '0008'));
    const application = `INSERT INTO applications (id, bank_code, application_type, mail_address, updated_at) VALUES ($1, $2, 'CHILD', 'a@example.com', '2026-01-02T03:04:05Z')`;
    await client.query(application, ['00000000-0000-4000-8000-000000000001', '0177']);
    await client.query(application, ['00000000-0000-4000-8000-000000000002', '0587']);
    await client.query(application, ['00000000-0000-4000-8000-000000000003', '0177']);
    const parent = `INSERT INTO application_parents (application_id, last_name, first_name, kana_last_name, kana_first_name, birthday, relationship,
        mobile_phone_number, phone_number, proxy_application_reason, occupation_id, occupation_name, occupation_other, workplace_name, workplace_phone_number, updated_at)
      VALUES ($1, '山田', $2, 'ﾔﾏﾀﾞ', $3, $4, $5, '080-1111-2222', $6, 'MINOR', $7, $8, $9, $10, $11, '2026-01-02T03:04:05Z')`;
    await client.query(parent, ['00000000-0000-4000-8000-000000000001', '太郎', 'ﾀﾛｳ', '1980-02-03', 'FATHER', null, 99, 'その他', '漁師', null, null]);
    await client.query(parent, ['00000000-0000-4000-8000-000000000002', '花子', 'ﾊﾅｺ', '1985-11-30', 'MOTHER', '092-711-3690', null, null, null, null, null]);
    expect(await migrate(target, files)).toEqual(files.filter((file) => file.name >= '0008').map((file) => file.name));
    const documents = await client.query<{ application_id: string; form: string; answers: Record<string, unknown> }>(
      `SELECT application_id, form, answers FROM application_forms WHERE form LIKE 'parent%' ORDER BY application_id, form`,
    );
    expect(documents.rows).toEqual([
      {
        application_id: '00000000-0000-4000-8000-000000000001',
        form: 'parent',
        answers: {
          bankCode: '0177',
          lastName: '山田',
          firstName: '太郎',
          kanaLastName: 'ﾔﾏﾀﾞ',
          kanaFirstName: 'ﾀﾛｳ',
          birthday: '1980-02-03',
          relationship: 'FATHER',
          mobilePhoneNumber: '080-1111-2222',
          proxyApplicationReason: 'MINOR',
        },
      },
      {
        application_id: '00000000-0000-4000-8000-000000000001',
        form: 'parent-workplace',
        answers: { occupationId: 99, occupationName: 'その他', occupationOther: '漁師' },
      },
      {
        application_id: '00000000-0000-4000-8000-000000000002',
        form: 'parent',
        answers: {
          bankCode: '0587',
          lastName: '山田',
          firstName: '花子',
          kanaLastName: 'ﾔﾏﾀﾞ',
          kanaFirstName: 'ﾊﾅｺ',
          birthday: '1985-11-30',
          relationship: 'MOTHER',
          mobilePhoneNumber: '080-1111-2222',
          phoneNumber: '092-711-3690',
          proxyApplicationReason: 'MINOR',
        },
      },
    ]);
    const tables = await client.query(`SELECT table_name FROM information_schema.tables WHERE table_name = 'application_parents'`);
    expect(tables.rows).toEqual([]);
  });

  it('keeps the documents uploaded before 0012 as files until the start imports them into the database, once, and removes the files', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kouza-db-'));
    client = await PGlite.create(path.join(dir, 'pglite'));
    const files = await readMigrations();
    await migrate(pgliteMigrationTarget(client), files.filter((file) => file.name < '0012'));
    const ids = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
    for (const id of ids) await client.query(`INSERT INTO applications (id, bank_code, application_type, mail_address) VALUES ($1, '0177', 'CHILD', 'a@example.com')`, [id]);
    const card = Buffer.from('card image bytes');
    const handbook = Buffer.from('handbook image bytes');
    const row = `INSERT INTO documents (application_id, type, stored_name, content_type, byte_size, width, height, created_at)
      VALUES ($1, $2, $3, 'image/png', $4, 800, 600, '2026-01-02T03:04:05Z')`;
    await client.query(row, [ids[0], 'INDIVIDUAL_NUMBER_CARD', 'aa.png', card.length]);
    await client.query(row, [ids[0], 'MATERNITY_HANDBOOK', 'bb.png', handbook.length]);
    // The second application's file is on another machine's disk.
    await client.query(row, [ids[1], 'INDIVIDUAL_NUMBER_CARD', 'cc.png', 9]);
    await client.close();
    client = undefined;
    const folder = path.join(dir, 'documents', ids[0] ?? '');
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'aa.png'), card);
    await writeFile(path.join(folder, 'bb.png'), handbook);

    const opened = await openDatabase({ dataDir: dir, databaseUrl: null });
    try {
      expect(await importDocumentFiles(opened.db, dir)).toEqual({ imported: 2, missing: 1 });
      expect(await readDocument(opened.db, ids[0] ?? '', 'INDIVIDUAL_NUMBER_CARD')).toMatchObject({ content: card, width: 800, height: 600 });
      expect(await readDocument(opened.db, ids[0] ?? '', 'MATERNITY_HANDBOOK')).toMatchObject({ content: handbook });
      // The files and their emptied folders are gone; the missing file's row waits, unchanged.
      expect(await readdir(dir)).not.toContain('documents');
      const rows = await opened.db.select({ storedName: documents.storedName, content: documents.content }).from(documents).orderBy(documents.applicationId, documents.type);
      expect(rows.map((stored) => stored.storedName)).toEqual([null, null, 'cc.png']);
      expect(rows[2]?.content).toBeNull();
      // Again: nothing more to import, nothing changed.
      expect(await importDocumentFiles(opened.db, dir)).toEqual({ imported: 0, missing: 1 });
      expect(await readDocument(opened.db, ids[0] ?? '', 'INDIVIDUAL_NUMBER_CARD')).toMatchObject({ content: card });
      // A row is either in the database or names its file, never neither nor both.
      await expect(opened.db.update(documents).set({ storedName: null })).rejects.toThrow();
      await expect(opened.db.update(documents).set({ storedName: 'dd.png' })).rejects.toThrow();
    } finally {
      await opened.close();
    }
  });
});
