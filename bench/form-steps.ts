/**
 * npx tsx bench/form-steps.ts [N]
 *
 * Prints, with no assertions, the server-side cost of the generic form-step handler
 * (src/server/routes/form-steps.ts) beside a bare Fastify route, all through app.inject (no
 * network), N calls each (default 500) after a warm-up:
 * - a bare Fastify instance whose one POST route parses the same JSON body as /personal and
 *   answers {} (the floor: routing, JSON parsing, serialising);
 * - our app (PGlite in memory) answering POST /api/applications/branch (a small form),
 *   POST /api/applications/workplace, POST /api/applications/personal (the largest form) and a
 *   refused /personal post (400 with errors), for a signed-in applicant of bank 0177;
 * for each: median and 95th percentile per call, the median as a ratio to the bare route's,
 * the process CPU time per call (process.cpuUsage delta / N: PGlite runs in this process, so
 * it includes the database), and the SQL statements per call (counted by wrapping the PGlite
 * client's query/exec/transaction under the app's drizzle instance, bench/sql-count.ts;
 * BEGIN/COMMIT included);
 * and, for scale, one of the handler's SQL selects alone; then the statements of one call.
 */
import { eq } from 'drizzle-orm';
import { cpus, loadavg } from 'node:os';
import { PGlite } from '@electric-sql/pglite';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/app.js';
import { validBodies } from '../tests/api/application-fixtures.js';
import { benchConfig, medianAndP95 } from './support.js';
import { countPgliteStatements } from './sql-count.js';
import { hashAuthToken, newAuthToken } from '../src/server/crypto.js';
import { applicationPins, applications, authTokens } from '../src/server/db/schema.js';
import type { Database } from '../src/server/db/index.js';

const N = Number(process.argv[2] ?? 500);
const WARMUP = Math.min(N, 100);
const HOUR = 60 * 60 * 1000;
const BANK = '0177';

const config = benchConfig();

const ms = (value: number) => `${value.toFixed(value < 1 ? 3 : 2)} ms`;

/** One select alone, for scale: whether the application has its PIN. */
async function hasPin(db: Database, applicationId: string): Promise<boolean> {
  const [row] = await db.select({ id: applicationPins.applicationId }).from(applicationPins).where(eq(applicationPins.applicationId, applicationId)).limit(1);
  return row !== undefined;
}


/** SQL statements sent to PGlite, counted (and, while `recording` is set, kept). */
const sqlCount = { statements: 0, recording: null as string[] | null };

function note(sql: string): void {
  sqlCount.statements += 1;
  sqlCount.recording?.push(sql.replace(/\s+/g, ' ').trim());
}

interface Measured {
  median: number;
  p95: number;
  cpuPerCall: number;
  sqlPerCall: number;
}

async function measure(count: number, run: () => Promise<unknown>): Promise<Measured> {
  for (let i = 0; i < WARMUP; i += 1) await run();
  const samples: number[] = [];
  const statementsBefore = sqlCount.statements;
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  const cpu = process.cpuUsage(cpuBefore);
  const statements = sqlCount.statements - statementsBefore;
  return {
    ...medianAndP95(samples),
    cpuPerCall: (cpu.user + cpu.system) / 1000 / count,
    sqlPerCall: statements / count,
  };
}

/** The statements of one call, each with how often it was sent. */
async function statementsOfOneCall(run: () => Promise<unknown>): Promise<string[]> {
  const recorded: string[] = [];
  sqlCount.recording = recorded;
  try {
    await run();
  } finally {
    sqlCount.recording = null;
  }
  const times = new Map<string, number>();
  for (const sql of recorded) times.set(sql, (times.get(sql) ?? 0) + 1);
  return [...times].map(([sql, n]) => `${n}x ${sql.length > 140 ? `${sql.slice(0, 137)}...` : sql}`);
}

async function main(): Promise<void> {
  console.log(`machine: ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), load average (1 min) ${loadavg()[0]?.toFixed(1)} (numbers scale with it)`);
  console.log(`node ${process.version}, N=${N} calls each after ${WARMUP} warm-up calls, all through app.inject\n`);

  // Our app, and a signed-in applicant written directly (no mail round trip needed here).
  // Every PGlite's (this process has one): drizzle's client is a wrapper (db/pglite-client.ts).
  countPgliteStatements(PGlite.prototype, note);
  const app = await buildApp(config);
  await app.ready();
  const token = newAuthToken();
  const now = new Date();
  const [row] = await app.db
    .insert(applications)
    .values({ bankCode: BANK, applicationType: 'GENERAL', mailAddress: 'bench@example.com' })
    .returning({ id: applications.id });
  if (!row) throw new Error('no application row');
  await app.db
    .insert(authTokens)
    .values({ tokenHash: hashAuthToken(token), applicationId: row.id, lastSeenAt: now, expiresAt: new Date(now.getTime() + 12 * HOUR) });
  const headers = { host: app.banks.get(BANK)?.DOMAIN ?? 'localhost', authorization: `Bearer ${token}` };

  // The addressCode of the first candidate of 8100001 (天神), as the page and the tests pick it.
  const addresses = await app.inject({ method: 'GET', url: '/api/addresses?postalNumber=8100001', headers });
  const addressCode = addresses.json<{ addressList: { addressCode: string }[] }>().addressList[0]?.addressCode;
  if (!addressCode) throw new Error(`GET /api/addresses answered ${addresses.statusCode} with no candidate`);

  // The tests' valid body (tests/api/application-fixtures.ts) and steps.test.ts's refused one.
  const personal = validBodies.personal(addressCode);
  const refused = { ...personal, utilizationPurpose: ['LOTTERY'], lastName: '山田☆', addressCode: 'x' };
  const branch = { branchCode: '101' };
  const personalJson = JSON.stringify(personal);

  // The bare Fastify route: parses a JSON body (the /personal one, same bytes) and answers {}.
  const bare: FastifyInstance = Fastify({ logger: false });
  bare.post('/bare', async (request) => {
    if (typeof request.body !== 'object' || request.body === null) throw new Error('no body');
    return {};
  });
  await bare.ready();

  const post = (instance: FastifyInstance, url: string, payload: string, status: number, extraHeaders: Record<string, string> = {}) => async () => {
    const response = await instance.inject({ method: 'POST', url, headers: { ...extraHeaders, 'content-type': 'application/json' }, payload });
    if (response.statusCode !== status) throw new Error(`${url} answered ${response.statusCode}, not ${status}: ${response.body}`);
    return response;
  };
  const cases: [string, () => Promise<unknown>][] = [
    [`bare Fastify POST (${Buffer.byteLength(personalJson)} B body)`, post(bare, '/bare', personalJson, 200)],
    ['POST /api/applications/branch', post(app, '/api/applications/branch', JSON.stringify(branch), 200, headers)],
    ['POST /api/applications/workplace', post(app, '/api/applications/workplace', JSON.stringify(validBodies.workplace()), 200, headers)],
    ['POST /api/applications/personal', post(app, '/api/applications/personal', personalJson, 200, headers)],
    ['  same, refused (400 with errors)', post(app, '/api/applications/personal', JSON.stringify(refused), 400, headers)],
    // For scale: one of the handler's statements alone, as a function call (no HTTP).
    ['one SQL select alone (hasPin, no HTTP)', () => hasPin(app.db, row.id)],
  ];

  // Each once first, so a wrong body stops the run before any timing.
  for (const [, run] of cases) await run();
  const answer = (await post(app, '/api/applications/personal', JSON.stringify(refused), 400, headers)()).json<{ errors: unknown[] }>();

  const results: [string, Measured][] = [];
  for (const [label, run] of cases) results.push([label, await measure(N, run)]);
  const floor = results[0]?.[1].median ?? Number.NaN;

  console.log(`per call, warm${' '.repeat(28)}median / p95             : bare    CPU/call     SQL/call`);
  for (const [label, m] of results) {
    console.log(
      `  ${label.padEnd(38)} ${`${ms(m.median)} / ${ms(m.p95)}`.padEnd(24)} ${`${(m.median / floor).toFixed(1)}x`.padStart(6)}  ${ms(m.cpuPerCall).padStart(10)}  ${m.sqlPerCall.toFixed(1).padStart(8)}`,
    );
  }
  console.log(`  (the refused post answers ${answer.errors.length} errors)`);

  // What one call sends to the database, to see where the statements go.
  for (const [label, run] of cases.slice(1, 5)) {
    console.log(`\nSQL of one ${label.trim()}:`);
    for (const line of await statementsOfOneCall(run)) console.log(`  ${line}`);
  }

  await bare.close();
  await app.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
