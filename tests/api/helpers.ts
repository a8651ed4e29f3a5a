import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import type { BankConfig } from '../../src/domain/bank/types.js';
import { loadBanks, type BankRegistry } from '../../src/server/banks/registry.js';
import { loadConfig, type ServerConfig } from '../../src/server/config.js';
import { OutboxMailSender, type OutboxEntry } from '../../src/server/mail/index.js';
import { TEST_IDENTITY_CHECK_DAY } from '../support/identity-check-day.js';

/**
 * Shared set-up of the API tests: the real app (buildApp) on a fresh database, the real bank
 * registry, and the real outbox sender writing into a temporary directory, from which the
 * tests read the codes the way an applicant reads their mail. Nothing of ours is mocked; only
 * the clock is the test's, and the identity-check methods are those of TEST_IDENTITY_CHECK_DAY
 * (a test of the switch itself sets identityCheckMethodsDay: null to follow the clock).
 */

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface Backend {
  name: 'pglite' | 'postgres';
  /** For postgres: the server to create a throwaway schema on. */
  url?: string;
}

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set (CI starts one). */
export const backends: Backend[] = [
  { name: 'pglite' },
  ...(process.env.TEST_DATABASE_URL ? [{ name: 'postgres' as const, url: process.env.TEST_DATABASE_URL }] : []),
];

/**
 * What a production server needs beside NODE_ENV: the real OpenID provider of the JPKI method
 * (the stand-in is refused there; its discovery document is read on first use only).
 */
export const PRODUCTION = {
  production: true,
  ekycOidc: { issuer: 'https://auth.example.jp', clientId: 'account-opening', clientSecret: null, standinOrigin: null },
} as const;

/** A clock the test moves (the rate limits' windows too); starts at the real time. */
export class TestClock {
  current = new Date();
  now = (): Date => new Date(this.current);
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
  reset(): void {
    this.current = new Date();
  }
}

/**
 * The birthday (YYYY-MM-DD) of someone `years` old at `now`, by the UTC day: the server counts
 * ages by the Tokyo day, which is the same or one day later, so the age never differs.
 */
export function birthdayYearsAgo(now: Date, years: number): string {
  const day = new Date(now);
  day.setUTCFullYear(day.getUTCFullYear() - years);
  return day.toISOString().slice(0, 10);
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export interface TestServer {
  app: FastifyInstance;
  banks: BankRegistry;
  outbox: Mailbox;
  clock: TestClock;
  config: ServerConfig;
  close(): Promise<void>;
}

/** A PostgreSQL schema of its own per run, so parallel files and runs never meet. */
export async function throwawaySchema(url: string): Promise<{ databaseUrl: string; drop(): Promise<void> }> {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const withPath = new URL(url);
  // libpq's options parameter: every pooled connection starts with this search_path.
  withPath.searchParams.set('options', `-c search_path=${schema}`);
  return {
    databaseUrl: withPath.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    },
  };
}

/** The mails sent so far, newest first, as the applicant's mailbox would show them. */
export interface Mailbox {
  list(): Promise<OutboxEntry[]>;
}

export async function startTestServer(
  backend: Backend,
  options: { config?: Partial<ServerConfig>; logStream?: Writable; pages?: FastifyPluginAsync; banks?: (banks: BankRegistry) => BankRegistry } = {},
): Promise<TestServer> {
  const outboxDir = await mkdtemp(path.join(tmpdir(), 'kouza-outbox-'));
  const database = backend.name === 'postgres' && backend.url ? await throwawaySchema(backend.url) : null;
  const config: ServerConfig = {
    ...loadConfig({}),
    dataDir: ':memory:',
    databaseUrl: database?.databaseUrl ?? null,
    smtpUrl: null,
    logLevel: 'silent',
    secrets: { hmacPepper: randomBytes(32).toString('base64url') },
    identityCheckMethodsDay: TEST_IDENTITY_CHECK_DAY,
    ...options.config,
  };
  const loaded = await loadBanks(path.join(root, 'banks'));
  // A test may change what the banks' folders say (a DELIVERY_ENDPOINT of its own).
  const banks = options.banks ? options.banks(loaded) : loaded;
  const sender = new OutboxMailSender(outboxDir);
  const clock = new TestClock();
  const app = await buildApp(config, {
    banks,
    mailSender: sender,
    now: clock.now,
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(options.pages ? { pages: options.pages } : {}),
  });
  await app.ready();
  // What the applicant's mailbox holds: the queue has had its try at every mail due by now.
  const outbox: Mailbox = {
    list: async () => {
      await app.mailQueue.flush();
      return sender.list();
    },
  };
  return {
    app,
    banks,
    outbox,
    clock,
    config,
    close: async () => {
      await app.close();
      await database?.drop();
      await rm(outboxDir, { recursive: true, force: true });
    },
  };
}

/**
 * A test server for the enclosing describe block: started before its tests, closed after, its
 * clock reset before each. The returned object stands for the running server (its properties
 * are read from it when used, so it is declared before the server exists).
 */
export function testServerFor(backend: Backend, options: Parameters<typeof startTestServer>[1] = {}): TestServer {
  let current: TestServer | undefined;
  beforeAll(async () => {
    current = await startTestServer(backend, options);
  });
  afterAll(async () => {
    await current?.close();
  });
  beforeEach(() => current?.clock.reset());
  return new Proxy({} as TestServer, {
    get: (_target, key) => {
      if (!current) throw new Error('the test server is not started (use it inside a test)');
      return Reflect.get(current, key) as unknown;
    },
  });
}

/** The Host header under which the page of a bank is served. */
export function hostOf(server: TestServer, code: string): string {
  const bank = server.banks.get(code);
  if (!bank) throw new Error(`no bank ${code}`);
  return bank.DOMAIN;
}

let counter = 0;
/** A mail address no other test uses. */
export function uniqueAddress(label = 'applicant'): string {
  counter += 1;
  return `${label}.${counter}.${randomBytes(3).toString('hex')}@example.com`;
}

let ipCounter = 0;
/** A client IP no other test uses (rate limits are per IP). */
export function uniqueIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 8) & 255}.${ipCounter & 255}.${1 + Math.floor(Math.random() * 250)}`;
}

/** The six-digit code in a verification mail's text, as the applicant reads it. */
export function verificationCodeIn(text: string | undefined): string | undefined {
  return text?.match(/認証コード：(\d{6})/)?.[1];
}

/** The code in the newest mail to an address, as the applicant would read it. */
export async function codeFromOutbox(outbox: Mailbox, to: string): Promise<string> {
  const mail = (await outbox.list()).find((entry) => entry.to === to);
  const code = verificationCodeIn(mail?.text);
  if (!code) throw new Error(`no code mailed to ${to}`);
  return code;
}

export interface Applicant {
  bankCode: string;
  mailAddress: string;
  applicationType: 'GENERAL' | 'CHILD';
}

export function applicant(bankCode = '0177', applicationType: Applicant['applicationType'] = 'GENERAL'): Applicant {
  return { bankCode, mailAddress: uniqueAddress(), applicationType };
}

export async function register(server: TestServer, who: Applicant, ip = uniqueIp()) {
  return server.app.inject({
    method: 'POST',
    url: '/api/verification-codes/register',
    headers: { host: hostOf(server, who.bankCode) },
    remoteAddress: ip,
    payload: who,
  });
}

export async function verify(
  server: TestServer,
  who: Applicant,
  verificationCode: string,
  extra: Record<string, unknown> = {},
  ip = uniqueIp(),
) {
  return server.app.inject({
    method: 'POST',
    url: '/api/verification-codes/verify',
    headers: { host: hostOf(server, who.bankCode) },
    remoteAddress: ip,
    payload: { ...who, verificationCode, channel: null, deviceId: null, ...extra },
  });
}

/** Register and verify: the token of a fresh application. */
/** Registers on `server` and verifies on `verifyOn` (another instance on the same database, or the same). */
export async function signIn(server: TestServer, who: Applicant = applicant(), verifyOn: TestServer = server): Promise<string> {
  const registered = await register(server, who);
  if (registered.statusCode !== 200) throw new Error(`register answered ${registered.statusCode}`);
  const verified = await verify(verifyOn, who, await codeFromOutbox(verifyOn.outbox, who.mailAddress));
  if (verified.statusCode !== 200) throw new Error(`verify answered ${verified.statusCode}`);
  return verified.json<{ authenticationToken: string }>().authenticationToken;
}

/** A log stream for startTestServer whose lines (one JSON object each) the test reads. */
export function captureLog(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines };
}

/** The banks of `registry`, each handing its applications to `endpointOf(its code)` (DELIVERY_ENDPOINT), as startTestServer's `banks`. */
export function withDeliveryEndpoints(registry: BankRegistry, endpointOf: (bankCode: string) => string): BankRegistry {
  const add = (bank: BankConfig | undefined) => bank && { ...bank, DELIVERY_ENDPOINT: endpointOf(bank.code) };
  return {
    all: () => registry.all().map((bank) => ({ ...bank, DELIVERY_ENDPOINT: endpointOf(bank.code) })),
    get: (code) => add(registry.get(code)),
    resolveHost: (host, defaultCode, exactOnly) => add(registry.resolveHost(host, defaultCode, exactOnly)),
    imagePath: (bank, kind) => registry.imagePath(bank, kind),
  };
}
