import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wholeApplication, Recorder, type Flow, type Target } from '../../bench/applications.js';
import { startProcess, type Started } from '../../bench/processes.js';
import { runCli } from '../../src/cli/operator.js';
import { PIN_ATTEMPTS_PER_HOUR } from '../../src/server/routes/pin.js';
import { applicant, throwawaySchema, uniqueIp, type Applicant } from './helpers.js';
import { startCodeSink, type CodeSink } from './smtp-sink.js';

/**
 * Two server processes (`node --import tsx src/server/main.ts`, each an OS process of its own)
 * on one PostgreSQL, configured as a deployment configures them: the same DATABASE_URL, the
 * same secrets file (the HMAC pepper and the eKYC callback key) and PIN key (PIN_KEY_FILE),
 * one SMTP server, TRUST_PROXY for the balancer in front, and a DATA_DIR of its own each (so a
 * document kept on one's disk would not be found by the other). Whatever one process has to
 * know of what the other did can only come through the database. One applicant's requests go
 * to both in turn, as a balancer without sticky sessions sends them; the rate limits count on
 * both together; an operator's maintenance window shows on both at once.
 *
 * The page shell the applicants open first is the built client (dist/client), which `npm test`
 * builds before vitest runs.
 */

const testDatabaseUrl = process.env.TEST_DATABASE_URL;
/** Small limits per IP (configuration, as the tests give it), so that a test reaches them in a few requests. */
const IP_PER_HOUR = 8;
const VERIFY_IP_PER_HOUR = 6;
/** The per-address limit is the default one. */
const ADDRESS_PER_HOUR = 5;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return address.port;
}

/** A POST of JSON from a client IP (X-Forwarded-For, as the balancer sets it); status and body. */
async function post(base: string, url: string, body: unknown, ip: string, token?: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(base + url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe.skipIf(!testDatabaseUrl)('two server processes on one PostgreSQL (skipped without TEST_DATABASE_URL)', () => {
  // Skipped without TEST_DATABASE_URL: PGlite is one process's database.
  let database: Awaited<ReturnType<typeof throwawaySchema>>;
  let folder: string;
  let sink: CodeSink;
  const dataDirs: string[] = [];
  const servers: Started[] = [];
  /** The index-th process, its URL and DATA_DIR once started. */
  const processAt = (index: number) => ({
    get base() {
      return servers[index]?.base ?? '';
    },
    get dataDir() {
      return dataDirs[index] ?? '';
    },
  });
  const a = processAt(0);
  const b = processAt(1);

  beforeAll(async () => {
    database = await throwawaySchema(testDatabaseUrl ?? '');
    folder = await mkdtemp(path.join(tmpdir(), 'kouza-processes-'));
    sink = await startCodeSink();
    const pinKeyFile = path.join(folder, 'pin-key.pem');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await writeFile(pinKeyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    const secrets = `${JSON.stringify({ hmacPepper: randomBytes(32).toString('base64url'), ekycCallbackSecret: randomBytes(32).toString('base64url') })}\n`;
    const start = async (name: string) => {
      const dataDir = path.join(folder, name);
      await mkdir(dataDir);
      await writeFile(path.join(dataDir, 'secrets.json'), secrets, { mode: 0o600 });
      dataDirs.push(dataDir);
      return startProcess(['--import', 'tsx', 'src/server/main.ts'], await freePort(), {
        DATA_DIR: dataDir,
        DATABASE_URL: database.databaseUrl,
        PIN_KEY_FILE: pinKeyFile,
        SMTP_URL: sink.url,
        TRUST_PROXY: '127.0.0.1',
        RATE_LIMIT_ADDRESS_PER_HOUR: String(ADDRESS_PER_HOUR),
        RATE_LIMIT_IP_PER_HOUR: String(IP_PER_HOUR),
        RATE_LIMIT_VERIFY_IP_PER_HOUR: String(VERIFY_IP_PER_HOUR),
        LOG_LEVEL: 'warn',
      }, '/term');
    };
    // One after the other: the first applies the migrations, the second finds them applied.
    servers.push(await start('a'));
    servers.push(await start('b'));
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await sink?.close();
    await database?.drop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  /** Applications with an application number, in the one database. */
  const completedApplications = async (): Promise<number> => {
    const client = new pg.Client({ connectionString: database.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM applications WHERE application_number IS NOT NULL');
      return Number(rows[0]?.n);
    } finally {
      await client.end();
    }
  };

  /** The applicant's requests, each to the next process in turn; how many each one got. */
  const inTurn = (recorder: Recorder): Target & { served: number[] } => {
    let next = 0;
    const served = [0, 0];
    return {
      recorder,
      codeFor: (address) => sink.codeFor(address),
      served,
      get base() {
        const index = next;
        next = 1 - next;
        served[index] = (served[index] ?? 0) + 1;
        return processAt(index).base;
      },
    };
  };

  it.each<Flow>(['general', 'child'])('takes a whole %s application from register to completion with its requests sent to both in turn', async (flow) => {
    const completedBefore = await completedApplications();
    const recorder = new Recorder();
    const target = inTurn(recorder);
    // Throws on any answer the page would not expect; the child's documents are uploaded to
    // one process each and read by whichever starts the identity check and hands it to the bank.
    await wholeApplication(target, flow, 0);
    expect(recorder.examples).toEqual([]);
    expect(Math.abs((target.served[0] ?? 0) - (target.served[1] ?? 0))).toBeLessThanOrEqual(1);
    expect(target.served[0]).toBeGreaterThan(10);
    expect(await completedApplications()).toBe(completedBefore + 1);
    for (const dataDir of dataDirs) expect(await readdir(dataDir)).not.toContain('documents');
  });

  it('holds the per-address limit of codes across both', async () => {
    const who: Applicant = applicant();
    for (let i = 0; i < ADDRESS_PER_HOUR; i += 1) {
      expect((await post(i % 2 === 0 ? a.base : b.base, '/api/verification-codes/register', who, uniqueIp())).status).toBe(200);
    }
    expect((await post(a.base, '/api/verification-codes/register', who, uniqueIp())).status).toBe(429);
    expect((await post(b.base, '/api/verification-codes/register', who, uniqueIp())).status).toBe(429);
  });

  it('holds the per-IP limits across both, also for requests arriving at once', async () => {
    const ip = uniqueIp();
    const registered = await Promise.all(
      Array.from({ length: IP_PER_HOUR + 4 }, (_, i) => post(i % 2 === 0 ? a.base : b.base, '/api/verification-codes/register', applicant(), ip)),
    );
    const statuses = registered.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(IP_PER_HOUR);
    expect(statuses.filter((status) => status === 429)).toHaveLength(4);
    // Wrong codes from one IP: every try counts, on whichever process it arrives.
    const tries: number[] = [];
    for (let i = 0; i < VERIFY_IP_PER_HOUR + 2; i += 1) {
      const who = applicant();
      const body = { ...who, verificationCode: '000000', channel: null, deviceId: null };
      tries.push((await post(i % 2 === 0 ? a.base : b.base, '/api/verification-codes/verify', body, ip)).status);
    }
    expect(tries.slice(0, VERIFY_IP_PER_HOUR)).not.toContain(429);
    expect(tries.slice(VERIFY_IP_PER_HOUR)).toEqual([429, 429]);
    // Another client is not affected on either process.
    expect((await post(a.base, '/api/verification-codes/register', applicant(), uniqueIp())).status).toBe(200);
    expect((await post(b.base, '/api/verification-codes/register', applicant(), uniqueIp())).status).toBe(200);
  });

  it('counts the PIN tries of one session on both together', async () => {
    const who = applicant();
    const ip = uniqueIp();
    expect((await post(b.base, '/api/verification-codes/register', who, ip)).status).toBe(200);
    const verified = await post(a.base, '/api/verification-codes/verify', { ...who, verificationCode: await sink.codeFor(who.mailAddress), channel: null, deviceId: null }, ip);
    const token = String(verified.json.authenticationToken);
    for (let i = 0; i < PIN_ATTEMPTS_PER_HOUR; i += 1) {
      expect((await post(i % 2 === 0 ? a.base : b.base, '/api/pin', { code: 'not a PIN' }, ip, token)).status).not.toBe(429);
    }
    expect((await post(a.base, '/api/pin', { code: 'not a PIN' }, ip, token)).status).toBe(429);
    expect((await post(b.base, '/api/pin', { code: 'not a PIN' }, ip, token)).status).toBe(429);
  });

  it("shows an operator's maintenance window on the other process within a second", async () => {
    const maintenance = async (base: string) => (await fetch(`${base}/api/maintenance`)).status;
    /** The operator command on process A's machine, with its environment: straight to the database. */
    const operator = async (...argv: string[]) => {
      const ignore = () => undefined;
      expect(await runCli(argv, { env: { DATABASE_URL: database.databaseUrl, DATA_DIR: a.dataDir }, out: ignore, err: ignore })).toBe(0);
    };
    /** ms from now until the process answers `status` (polled every 10 ms, given up after 2 s). */
    const msUntil = async (base: string, status: number) => {
      const from = performance.now();
      while ((await maintenance(base)) !== status && performance.now() - from < 2_000) await new Promise((resolve) => setTimeout(resolve, 10));
      return performance.now() - from;
    };
    // Both have read (and keep) the windows: none.
    expect(await maintenance(a.base)).toBe(404);
    expect(await maintenance(b.base)).toBe(404);
    // To the minute, as an operator writes it: tomorrow, for an hour.
    const inHours = (hours: number) => `${new Date(Date.now() + hours * 3600_000).toISOString().slice(0, 16)}Z`;
    await operator('maintenance', 'add', '--start', inHours(24), '--end', inHours(25));
    expect(await msUntil(b.base, 200)).toBeLessThan(1_000);
    expect(await maintenance(a.base)).toBe(200);
    await operator('maintenance', 'clear');
    expect(await msUntil(b.base, 404)).toBeLessThan(1_000);
  });
});
