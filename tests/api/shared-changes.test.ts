import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headersOf, signedIn } from './application-fixtures.js';
import { backends, hostOf, startTestServer, type TestServer } from './helpers.js';

/**
 * The operators' data and the banks' occupations and branches are kept in each process's
 * memory, and dropped when the database notifies a change (migrations 0011, 0014): a change
 * made any way shows at once in the process that made it, and within a second in every other
 * process on the same PostgreSQL (two server processes: tests/api/two-processes.test.ts).
 */
describe.each(backends)('changes the database announces ($name)', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
    server.clock.current = new Date('2026-11-30T12:00:00+09:00');
  });
  afterAll(async () => {
    await server?.close();
  });
  const notices = async (target: TestServer) =>
    (await target.app.inject({ method: 'GET', url: '/api/notifications/0181', headers: { host: hostOf(target, '0181') } })).json<{ notificationList: unknown[] }>().notificationList;

  it('shows a notice written with plain SQL, and forgets one deleted so', async () => {
    expect(await notices(server)).toEqual([]);
    await server.app.db.execute(sql`INSERT INTO notifications (bank_code, contents) VALUES ('0181', 'SQLで追加したお知らせ')`);
    await expect.poll(() => notices(server), { timeout: 1_000, interval: 20 }).toEqual([{ contents: 'SQLで追加したお知らせ' }]);
    await server.app.db.execute(sql`DELETE FROM notifications WHERE bank_code = '0181'`);
    await expect.poll(() => notices(server), { timeout: 1_000, interval: 20 }).toEqual([]);
  });

  it('shows a branch renamed with plain SQL (a seed while the server runs), in the list and in what the step stores', async () => {
    const who = await signedIn(server, '0177');
    const branchName = async () =>
      (await server.app.inject({ method: 'GET', url: '/api/branch', headers: headersOf(server, who) })).json<{ branchList: { code: string; name: string }[] }>().branchList.find((branch) => branch.code === '001')?.name;
    const original = await branchName();
    expect(original).toBeTruthy();
    try {
      await server.app.db.execute(sql`UPDATE branches SET name = 'SQLで変えた支店' WHERE bank_code = '0177' AND code = '001'`);
      await expect.poll(branchName, { timeout: 1_000, interval: 20 }).toBe('SQLで変えた支店');
      const stored = await server.app.inject({ method: 'POST', url: '/api/applications/branch', headers: headersOf(server, who), payload: { branchCode: '001' } });
      expect(stored.statusCode).toBe(200);
      const read = await server.app.inject({ method: 'GET', url: '/api/applications', headers: headersOf(server, who) });
      expect(read.json<{ application: { branchName: string } }>().application.branchName).toBe('SQLで変えた支店');
    } finally {
      await server.app.db.execute(sql`UPDATE branches SET name = ${original} WHERE bank_code = '0177' AND code = '001'`);
    }
  });
});
