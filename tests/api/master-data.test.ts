import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import { branches, invitationCodes, occupations, workplaces } from '../../src/server/db/schema.js';
import { loadMasterData } from '../../src/server/masterdata/load.js';
import { seedFromFolder, seedMasterData } from '../../src/server/masterdata/seed.js';
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
      seedFromFolder(server.app.db, server.config.banksDir, codes),
      seedFromFolder(server.app.db, server.config.banksDir, codes),
    ]);
    expect(await counts()).toEqual(before);
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
  });
});
