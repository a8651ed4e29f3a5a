import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/operator.js';
import { buildApp } from '../../src/server/app.js';
import { startTestServer, hostOf, type TestServer } from './helpers.js';

/**
 * The operator channel end to end: a server on an on-disk PGlite DATA_DIR listens on
 * DATA_DIR/operator.sock, and the operator command line (runCli, what `npm run operator`
 * runs) finds it there and has the server run the command on its own database, which a second
 * process could not open.
 */
describe('operator socket', () => {
  let dataDir: string;
  let server: TestServer;
  let socketPath: string;
  let closed = false;

  /** Runs the command line as an operator would, with DATA_DIR pointing at the server's. */
  async function operator(...argv: string[]): Promise<{ exitCode: number; out: string[]; err: string[] }> {
    const out: string[] = [];
    const err: string[] = [];
    const exitCode = await runCli(argv, {
      env: { DATA_DIR: dataDir },
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    });
    return { exitCode, out, err };
  }

  const get = (url: string, code = '0587') =>
    server.app.inject({ method: 'GET', url, headers: { host: hostOf(server, code) } });

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'kouza-opsock-'));
    socketPath = path.join(dataDir, 'operator.sock');
    // An on-disk PGlite DATA_DIR, as in production (the other API tests keep it in memory,
    // where there is no socket).
    server = await startTestServer({ name: 'pglite' }, { config: { dataDir } });
  });
  afterAll(async () => {
    if (!closed) await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('listens on DATA_DIR/operator.sock, readable and writable by its owner only', async () => {
    const stats = await stat(socketPath);
    expect(stats.isSocket()).toBe(true);
    expect(stats.mode & 0o777).toBe(0o600);
  });

  it('runs maintenance commands inside the running server', async () => {
    expect((await get('/api/maintenance')).statusCode).toBe(404);

    const added = await operator('maintenance', 'add', '--start', '2099-12-01T00:00+09:00', '--end', '2099-12-01T06:00+09:00');
    expect(added.exitCode).toBe(0);
    expect(added.err).toEqual(['(via the running server)']);
    expect(added.out.join('\n')).toMatch(/^Added maintenance window #\d+: 2099-12-01T00:00:00\+09:00/);

    const announced = await get('/api/maintenance');
    expect(announced.statusCode).toBe(200);
    expect(announced.json()).toEqual({ startedAt: '2099-12-01T00:00:00+09:00', endedAt: '2099-12-01T06:00:00+09:00' });

    const listed = await operator('maintenance', 'list');
    expect(listed.out).toHaveLength(1);
    expect(listed.out[0]).toContain('2099-12-01T06:00:00+09:00');

    const cleared = await operator('maintenance', 'clear');
    expect(cleared).toMatchObject({ exitCode: 0, out: ['Removed 1 maintenance window(s).'] });
    expect((await get('/api/maintenance')).statusCode).toBe(404);
  });

  it("runs notification commands for the bank named, not another bank's", async () => {
    const contents = `年末年始のお取扱いについて ${randomBytes(3).toString('hex')}`;
    const added = await operator('notification', 'add', '--bank', '0587', '--contents', contents);
    expect(added.exitCode).toBe(0);
    expect(added.err).toEqual(['(via the running server)']);
    expect((await get('/api/notifications/0587')).json()).toEqual({ notificationList: [{ contents }] });
    expect((await get('/api/notifications/0181', '0181')).json()).toEqual({ notificationList: [] });

    const id = added.out[0]?.match(/#(\d+)/)?.[1];
    expect(id).toBeDefined();
    expect((await operator('notification', 'remove', '--id', id ?? '')).exitCode).toBe(0);
    expect((await get('/api/notifications/0587')).json()).toEqual({ notificationList: [] });
  });

  it('answers usage errors and failures with the exit code of the command line', async () => {
    const unknownBank = await operator('notification', 'add', '--bank', '9999', '--contents', 'x');
    expect(unknownBank.exitCode).toBe(2);
    expect(unknownBank.out.join('\n')).toContain('--bank 9999 is not a bank of the group');
    expect((await operator('maintenance', 'remove', '--id', '999999')).exitCode).toBe(1);
    expect((await operator('bogus')).exitCode).toBe(2);
  });

  it('reports the applicants a flow edit strands on the flows the server serves (ADR 0032)', async () => {
    const impact = await operator('flows', 'impact');
    expect(impact).toMatchObject({ exitCode: 0, err: ['(via the running server)'] });
    expect(impact.out).toEqual([expect.stringMatching(/^no applicant is at a state the served flows removed \(child [0-9a-f]{12}, general [0-9a-f]{12}\)$/)]);
  });

  it('refuses to start a second server on the same DATA_DIR', async () => {
    await expect(buildApp(server.config, { banks: server.banks })).rejects.toThrow(/another server is running/);
    // The first server still answers.
    expect((await operator('maintenance', 'list')).err).toEqual(['(via the running server)']);
  });

  it('removes the socket on close; the command line then opens the database itself', async () => {
    await server.close();
    closed = true;
    await expect(stat(socketPath)).rejects.toMatchObject({ code: 'ENOENT' });

    const direct = await operator('maintenance', 'list');
    expect(direct.exitCode).toBe(0);
    expect(direct.err).toEqual(['(directly on DATA_DIR/pglite: no server is running)']);
    expect(direct.out).toEqual(['No maintenance windows.']);
    // Directly, the served flows are FLOWS_DIR's, linted as a start would: the same report.
    expect((await operator('flows', 'impact')).out).toEqual([expect.stringContaining('no applicant is at a state the served flows removed (child ')]);
  });

  it('replaces a stale socket left by a server that died', async () => {
    // A socket file nobody listens on, as a server killed with SIGKILL leaves it behind.
    const killed = spawn(
      process.execPath,
      ['-e', "require('node:net').createServer().listen(process.argv[1], () => process.kill(process.pid, 'SIGKILL'))", socketPath],
      { stdio: 'ignore' },
    );
    await once(killed, 'exit');
    expect((await stat(socketPath)).isSocket()).toBe(true);
    expect((await operator('maintenance', 'list')).err).toEqual(['(directly on DATA_DIR/pglite: no server is running)']);

    const restarted = await startTestServer({ name: 'pglite' }, { config: { dataDir } });
    try {
      expect((await operator('maintenance', 'list')).err).toEqual(['(via the running server)']);
    } finally {
      await restarted.close();
    }
  });
});
