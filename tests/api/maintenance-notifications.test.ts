import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import { runOperator } from '../../src/server/operator/commands.js';
import { backends, hostOf, startTestServer, type TestServer } from './helpers.js';

describe.each(backends)('maintenance and notifications ($name)', (backend) => {
  let server: TestServer;
  const printed: string[] = [];
  const operator = (...argv: string[]) =>
    runOperator(argv, {
      db: server.app.db,
      isBank: (code) => Boolean(server.banks.get(code)),
      servedFlows: () => server.app.flowVersions.current(),
      print: (line) => printed.push(line),
      // As the operator socket runs it: this server drops its copy at once.
      changed: (table) => server.app.changes.changed(table),
    });

  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    server.clock.current = new Date('2026-11-30T12:00:00+09:00');
    printed.length = 0;
  });

  const get = (url: string, code = '0177') => server.app.inject({ method: 'GET', url, headers: { host: hostOf(server, code) } });

  it('answers 404 without a window, then the window an operator added, in Japan time', async () => {
    expect(await operator('maintenance', 'clear')).toBe(0);
    const none = await get('/api/maintenance');
    expect(none.statusCode).toBe(404);
    expect(none.json()).toHaveProperty('message');

    expect(await operator('maintenance', 'add', '--start', '2026-12-01T00:00+09:00', '--end', '2026-12-01T06:00')).toBe(0);
    expect(printed.join('\n')).toContain('2026-12-01T00:00:00+09:00');
    const upcoming = await get('/api/maintenance');
    expect(upcoming.statusCode).toBe(200);
    expect(upcoming.json()).toEqual({ startedAt: '2026-12-01T00:00:00+09:00', endedAt: '2026-12-01T06:00:00+09:00' });

    // During the window, and after it.
    server.clock.current = new Date('2026-12-01T03:00:00+09:00');
    expect((await get('/api/maintenance')).json()).toEqual({
      startedAt: '2026-12-01T00:00:00+09:00',
      endedAt: '2026-12-01T06:00:00+09:00',
    });
    server.clock.current = new Date('2026-12-01T06:00:00+09:00');
    expect((await get('/api/maintenance')).statusCode).toBe(404);

    expect(await operator('maintenance', 'list')).toBe(0);
    expect(await operator('maintenance', 'clear')).toBe(0);
    expect(printed.at(-1)).toBe('Removed 1 maintenance window(s).');
  });

  it('refuses malformed operator input', async () => {
    expect(await operator('maintenance', 'add', '--start', 'tomorrow', '--end', '2026-12-01T06:00+09:00')).toBe(2);
    expect(await operator('maintenance', 'add', '--start', '2026-12-01T06:00+09:00', '--end', '2026-12-01T00:00+09:00')).toBe(2);
    expect(await operator('notification', 'add', '--bank', '9999', '--contents', 'x')).toBe(2);
    expect(await operator('notification', 'add', '--bank', '0177')).toBe(2);
    expect(await operator('notification', 'remove', '--id', 'x')).toBe(2);
    expect(await operator('bogus')).toBe(2);
  });

  it("lists a bank's notices in force, not another bank's", async () => {
    expect((await get('/api/notifications/0587', '0587')).json()).toEqual({ notificationList: [] });
    await operator('notification', 'add', '--bank', '0587', '--contents', '年末年始のお取扱いについて');
    await operator('notification', 'add', '--bank', '0587', '--contents', '<b>後日</b>', '--start', '2026-12-10T00:00+09:00');
    await operator('notification', 'add', '--bank', '0181', '--contents', '十八親和銀行からのお知らせ', '--end', '2026-12-01T00:00+09:00');

    expect((await get('/api/notifications/0587', '0587')).json()).toEqual({
      notificationList: [{ contents: '年末年始のお取扱いについて' }],
    });
    expect((await get('/api/notifications/0181', '0181')).json()).toEqual({
      notificationList: [{ contents: '十八親和銀行からのお知らせ' }],
    });
    expect((await get('/api/notifications/0177')).json()).toEqual({ notificationList: [] });

    server.clock.current = new Date('2026-12-10T09:00:00+09:00');
    expect((await get('/api/notifications/0587', '0587')).json()).toEqual({
      notificationList: [{ contents: '年末年始のお取扱いについて' }, { contents: '<b>後日</b>' }],
    });
    expect((await get('/api/notifications/0181', '0181')).json()).toEqual({ notificationList: [] });

    printed.length = 0;
    await operator('notification', 'list', '--bank', '0587');
    const id = /#(\d+)/.exec(printed.join('\n'))?.[1] ?? '';
    expect(await operator('notification', 'remove', '--id', id)).toBe(0);
    expect((await get('/api/notifications/0587', '0587')).json()).toEqual({ notificationList: [{ contents: '<b>後日</b>' }] });
    expect(await operator('notification', 'remove', '--id', id)).toBe(1);
  });

  it('answers 400 for a malformed bank code and 404 for an unknown bank', async () => {
    const malformed = await get('/api/notifications/17');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ message: messages.badRequest });
    const unknown = await get('/api/notifications/9999');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toHaveProperty('message');
  });
});
