import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import { branches, invitationCodes, occupations, workplaces } from '../../src/server/db/schema.js';
import { loadMasterData } from '../../src/server/masterdata/load.js';
import { fingerprintsOf, seedFromFolder, seedMasterData } from '../../src/server/masterdata/seed.js';
import { applicant, backends, hostOf, signIn, startTestServer, type TestServer } from './helpers.js';

/** Seeding banks/<code>/*.json into the database, as every server start does. */
describe.each(backends)('master data seeding ($name)', (backend) => {
  let server: TestServer;
  let token: string;
  const codes = ['0177', '0587', '0181'];

  beforeAll(async () => {
    server = await startTestServer(backend);
    token = await signIn(server, applicant('0587'));
  });
  afterAll(async () => {
    await server?.close();
  });

  const counts = async () => {
    const { db } = server.app;
    return {
      occupations: (await db.select().from(occupations)).length,
      branches: (await db.select().from(branches)).length,
      workplaces: (await db.select().from(workplaces)).length,
      invitations: (await db.select().from(invitationCodes)).length,
    };
  };

  it('has the files of every bank in the tables after start', async () => {
    const files = loadMasterData(server.config.banksDir, codes);
    const sum = (pick: (bank: (typeof files)[number]) => unknown[]) => files.reduce((total, bank) => total + pick(bank).length, 0);
    expect(await counts()).toEqual({
      occupations: sum((bank) => bank.occupations),
      branches: sum((bank) => bank.branches),
      workplaces: sum((bank) => bank.workplaces),
      invitations: sum((bank) => bank.invitations),
    });
  });

  it('leaves the same rows when run again, even by two processes at once', async () => {
    const before = await counts();
    await Promise.all([
      seedFromFolder(server.app.db, server.config.banksDir, codes, true),
      seedFromFolder(server.app.db, server.config.banksDir, codes, true),
    ]);
    expect(await counts()).toEqual(before);
  });

  /** Each bank's row versions: a rewritten row gets a new xmin (the transaction that wrote it). */
  const versions = async () => {
    const rows = await server.app.db.select({ bankCode: branches.bankCode, xmin: sql<string>`xmin::text` }).from(branches);
    const byBank = new Map<string, string[]>();
    for (const row of rows) byBank.set(row.bankCode, [...(byBank.get(row.bankCode) ?? []), row.xmin].sort());
    return byBank;
  };

  it('writes nothing on a start whose files have not changed since their seed', async () => {
    await seedFromFolder(server.app.db, server.config.banksDir, codes);
    const before = await versions();
    const result = await Promise.all([
      seedFromFolder(server.app.db, server.config.banksDir, codes),
      seedFromFolder(server.app.db, server.config.banksDir, codes),
    ]);
    expect(result).toEqual([
      { seeded: [], unchanged: codes },
      { seeded: [], unchanged: codes },
    ]);
    // A process that found the bank changed before another seeded it looks again under the lock.
    const fingerprints = await fingerprintsOf(server.config.banksDir, codes);
    expect(await seedMasterData(server.app.db, loadMasterData(server.config.banksDir, codes), { fingerprints, force: false })).toEqual([]);
    expect(await versions()).toEqual(before);
  });

  it('seeds again only the bank whose file was edited', async () => {
    const edited = mkdtempSync(join(tmpdir(), 'banks-'));
    try {
      cpSync(server.config.banksDir, edited, { recursive: true });
      const file = join(edited, '0587', 'branches.json');
      const data = JSON.parse(readFileSync(file, 'utf8')) as { branches: Array<{ code: string; name: string }> };
      const [first] = data.branches;
      if (!first) throw new Error('0587 needs a branch');
      first.name = '編集した支店';
      writeFileSync(file, JSON.stringify(data));
      await seedFromFolder(server.app.db, server.config.banksDir, codes);
      const before = await versions();

      // Two processes starting at once: the bank is written once (the second sees, under the
      // lock, the fingerprint the first stored).
      const results = await Promise.all([seedFromFolder(server.app.db, edited, codes), seedFromFolder(server.app.db, edited, codes)]);
      expect(results.flatMap((result) => result.seeded.map((bank) => bank.bankCode))).toEqual(['0587']);
      expect(results.map((result) => result.unchanged.length).sort()).toEqual([2, 3]);
      const after = await versions();
      expect(after.get('0177')).toEqual(before.get('0177'));
      expect(after.get('0181')).toEqual(before.get('0181'));
      expect(after.get('0587')).not.toEqual(before.get('0587'));
      const [row] = await server.app.db.select().from(branches).where(sql`${branches.bankCode} = '0587' AND ${branches.code} = ${first.code}`);
      expect(row?.name).toBe('編集した支店');
    } finally {
      rmSync(edited, { recursive: true, force: true });
      // Back to the shipped files: the stored fingerprint is the edited one's, so 0587 is seeded.
      expect((await seedFromFolder(server.app.db, server.config.banksDir, codes)).seeded.map((bank) => bank.bankCode)).toEqual(['0587']);
    }
  });

  it('rewrites every bank when forced (npm run seed), unchanged files or not', async () => {
    await seedFromFolder(server.app.db, server.config.banksDir, codes);
    const before = await versions();
    const result = await seedFromFolder(server.app.db, server.config.banksDir, codes, true);
    expect(result.seeded.map((bank) => bank.bankCode)).toEqual(codes);
    const after = await versions();
    for (const code of codes) expect(after.get(code)).not.toEqual(before.get(code));
    // The forced seed stored the files' fingerprint: the next start skips again.
    expect((await seedFromFolder(server.app.db, server.config.banksDir, codes)).unchanged).toEqual(codes);
  });

  it('takes an edited file into effect: entries removed, swapped and added', async () => {
    const [original] = loadMasterData(server.config.banksDir, ['0587']);
    if (!original) throw new Error('no 0587 master data');
    const [first, second] = original.workplaces;
    if (!first || !second) throw new Error('0587 needs two workplaces');
    const lookup = (code: string) =>
      server.app.inject({
        method: 'GET',
        url: `/api/workplace?code=${code}`,
        headers: { host: hostOf(server, '0587'), authorization: `Bearer ${token}` },
      });
    try {
      await seedMasterData(server.app.db, [
        {
          ...original,
          // The two codes swap owners, the rest go, one is new.
          workplaces: [
            { ...first, code: second.code },
            { ...second, code: first.code },
            { id: 50, code: 'NEW001', name: '新規取引先株式会社', phoneNumber: '096-000-0000', multipleAccounts: 'NOT_PERMITTED' },
          ],
        },
      ]);
      expect((await lookup(first.code)).json()).toMatchObject({ id: second.id });
      expect((await lookup('NEW001')).json()).toMatchObject({ id: 50, name: '新規取引先株式会社' });
      const removed = original.workplaces[2];
      if (removed) {
        const response = await lookup(removed.code);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ message: messages.workplaceNotFound });
      }
      const rows = await server.app.db.select().from(workplaces).where(eq(workplaces.bankCode, '0587'));
      expect(rows).toHaveLength(3);
      // Other banks are untouched.
      expect((await server.app.db.select().from(workplaces).where(eq(workplaces.bankCode, '0177'))).length).toBeGreaterThan(0);
    } finally {
      await seedMasterData(server.app.db, [original]);
    }
    expect((await lookup(first.code)).json()).toMatchObject({ id: first.id });
    // Rows not from the files leave no fingerprint: the next start seeds that bank again.
    expect((await seedFromFolder(server.app.db, server.config.banksDir, codes)).seeded.map((bank) => bank.bankCode)).toEqual(['0587']);
  });
});
