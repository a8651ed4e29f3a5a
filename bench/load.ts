/**
 * npm run bench:load   (builds, then: npx tsx bench/load.ts)
 *
 * Issue 13's load driver. Prints, with no assertions, for the embedded database and, when
 * BENCH_DATABASE_URL is set, PostgreSQL (a throwaway schema), side by side in one run:
 * - start: spawn to the first 200 on GET /term (a fresh DATA_DIR: the PIN key pair is made),
 *   and the server's RSS at idle after it and after the run;
 * - the cheap unauthenticated routes (GET /api/maintenance, GET /api/notifications/0177,
 *   GET /term) in requests/s against a bare Fastify "hello" in a process of its own, run just
 *   before them (the machine's load moves), as ratios, with the server's CPU per request;
 * - one applicant (no concurrency): whole general applications one after the other, then whole
 *   child ones: server CPU and SQL statements per application of each flow, the median of
 *   register and completion, and by route the statements and the median CPU of a request;
 * - saturation: LOAD_APPLICANTS concurrent applicants running whole applications back to back
 *   for LOAD_SECONDS, a share LOAD_CHILD_SHARE of them child ones (spread evenly; the rest
 *   general): applications/s in all and per flow, per-route p50/p95/p99/max and errors, server
 *   CPU and SQL statements per application, and PostgreSQL's own CPU when it runs on this machine.
 * Then a table of the issue's goals next to the figures.
 *
 * A whole application is what the pages send (bench/applications.ts), the mail read from a real
 * SMTP sink in this process (tests/api/smtp-sink.ts), each completed application delivered to a
 * bank receiver in this process (bench/bank-receiver.ts). With LOAD_PACE_SECONDS each applicant
 * spreads one application over that many seconds (think time between pages, starts
 * staggered), as the issue's "1,000 applicants pacing a 90 s application".
 *
 * The server is the built one (`node dist/server/main.js`, what `npm start` runs), in a
 * process of its own rather than the app in this process: that is how it runs in production
 * (no tsx, its own heap and event loop), the driver's CPU is not mixed into the server's, and
 * the server's CPU time and RSS are read from /proc/<pid>/stat and /proc/<pid>/status (Linux),
 * the same way for the bare Fastify process and the PostgreSQL backends. SQL statements are
 * counted by a probe preloaded into the server process (bench/server-probe.ts) and read over
 * its IPC channel, with the server's event-loop delay; the driver watches its own too.
 *
 * Configuration, never code defaults, makes one machine look like many applicants: the
 * verification-code rate limits are raised to 1,000,000 an hour (RATE_LIMIT_*, as the tests
 * and bench/mail.ts do through the config), and TRUST_PROXY=127.0.0.1 with an X-Forwarded-For
 * of its own per applicant gives each applicant its own client IP (as the tests' uniqueIp()),
 * so the per-IP limits' rows are not one hot row that only a one-IP load would have. Logging
 * stays at the default (info), written to /dev/null.
 *
 * Environment: LOAD_APPLICANTS (default 20), LOAD_SECONDS (20), LOAD_SINGLE (5 applications of
 * each flow), LOAD_CHILD_SHARE (0.5: every second application; 0 for general ones only),
 * LOAD_CHEAP_SECONDS (5 per route), LOAD_CHEAP_CONNECTIONS (50), LOAD_PACE_SECONDS (unset: no
 * think time), LOAD_WARMUP_SECONDS (10: whole applications by up to 20 applicants with no think
 * time before the measured load, uncounted but for their errors, so the figures are those of a
 * server whose code V8 has compiled, as on a campaign day, not of its first seconds; 0 for
 * none), BENCH_DATABASE_URL (unset: PGlite only), LOAD_PGLITE=0 (PostgreSQL only),
 * LOAD_PORT (first of three ports, 3441), LOAD_SQL_TEXTS=1 (also print each route's statements
 * by text), LOAD_CPU_PROF_DIR (a folder: the server runs with node --cpu-prof and writes its
 * profile there on exit; the profiler's own cost shows in the CPU figures, so measure without it).
 *
 * Statements and CPU are counted by route only for the one applicant: the probe's count by
 * route costs the server CPU of its own (bench/server-probe.ts), so under load it counts the
 * total, and one request's CPU is only its own while no other runs.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { throwawaySchema } from '../tests/api/helpers.js';
import { startCodeSink } from '../tests/api/smtp-sink.js';
import { DELIVERY_WAIT_MS, startBankReceiver } from './bank-receiver.js';
import { CODE_ARRIVES, countedApplication, drive, FLOWS, Recorder, wholeApplication, type Flow, type Target } from './applications.js';
import { benchServerEnv } from './server-env.js';
import { askProbe, compileProbe, probeByRoute, cpuMs, driverLoopDelay, mainThreadCpuMs, hammer, postgresCpuMs, rssMb, sleep, startProcess, type Started } from './processes.js';
import { cpuByRoute, cpuByRouteRows, type CpuByRoute } from './cpu-by-route.js';
import { sqlByRoute, sqlByRouteRows, sqlTextLines, type SqlByRoute } from './sql-by-route.js';
import { latencySummary } from './support.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const env = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const APPLICANTS = env('LOAD_APPLICANTS', 20);
const SECONDS = env('LOAD_SECONDS', 20);
const SINGLE = env('LOAD_SINGLE', 5);
const CHEAP_SECONDS = env('LOAD_CHEAP_SECONDS', 5);
const CHEAP_CONNECTIONS = env('LOAD_CHEAP_CONNECTIONS', 50);
const PACE_SECONDS = process.env.LOAD_PACE_SECONDS ? Number(process.env.LOAD_PACE_SECONDS) : null;
const FIRST_PORT = env('LOAD_PORT', 3441);
const SQL_TEXTS = process.env.LOAD_SQL_TEXTS === '1';
const CHILD_SHARE = env('LOAD_CHILD_SHARE', 0.5);
const WARMUP_SECONDS = env('LOAD_WARMUP_SECONDS', 10);
const WARMUP_APPLICANTS = Math.min(APPLICANTS, 20);
/** LOAD_PGLITE=0 skips the embedded database (a quicker PostgreSQL-only run; needs BENCH_DATABASE_URL). */
const PGLITE = process.env.LOAD_PGLITE !== '0';
/** A folder for the server's V8 CPU profiles (node --cpu-prof; summarise with bench/profile-summary.ts). */
const CPU_PROF_DIR = process.env.LOAD_CPU_PROF_DIR;
const BANK = '0177';

// ---- the SMTP sink: codes by address ------------------------------------------------------

const sink = await startCodeSink();
const codeFor = sink.codeFor;
const bankReceiver = await startBankReceiver();

// ---- one database --------------------------------------------------------------------------

interface Measured {
  name: string;
  startMs: number;
  idleRssMb: number;
  afterRssMb: number;
  /** The bare Fastify, measured just before this server's cheap routes (the machine's load changes). */
  bare: { perSecond: number; cpuUsPerRequest: number };
  cheap: Map<string, { perSecond: number; errors: number; cpuUsPerRequest: number }>;
  /** One applicant's applications of each flow, one after the other. */
  single: Record<Flow, Single>;
  /** The uncounted load before the measured one (LOAD_WARMUP_SECONDS). */
  warmup: Recorder;
  load: {
    seconds: number;
    recorder: Recorder;
    cpuMs: number;
    /** Of cpuMs, the event loop's thread. */
    mainThreadCpuMs: number;
    statements: number;
    postgresCpuMs: number | null;
    driverCpuMs: number;
    /** Of the applications completed under load, how many reached the bank's receiver within DELIVERY_WAIT_MS of the end. */
    delivered: number;
    serverLoop: { p99: number; max: number };
    driverLoop: { p99: number; max: number };
  };
}

interface Single {
  cpuMs: number;
  statements: number;
  byRoute: SqlByRoute;
  cpuByRoute: CpuByRoute;
  register: number;
  complete: number;
  codeArrives: number;
  failed: number;
}

const targetOf = (server: Started, recorder: Recorder): Target => ({ base: server.base, recorder, codeFor });

/** One applicant (no concurrency): one application of the flow to warm up, then SINGLE one after the other. */
async function oneApplicant(server: Started, flow: Flow): Promise<Single> {
  await wholeApplication(targetOf(server, new Recorder()), flow, 0);
  const recorder = new Recorder();
  const cpuBefore = await cpuMs(server.pid);
  const probeBefore = await askProbe(server);
  for (let i = 0; i < SINGLE; i += 1) await countedApplication(targetOf(server, recorder), flow, 0);
  const done = recorder.applications || 1;
  const probeAfter = await askProbe(server);
  const median = (route: string) => latencySummary(recorder.latencies.get(route) ?? []).median;
  return {
    cpuMs: ((await cpuMs(server.pid)) - cpuBefore) / done,
    statements: (probeAfter.statements - probeBefore.statements) / done,
    byRoute: sqlByRoute(probeBefore, probeAfter, done),
    cpuByRoute: cpuByRoute(probeAfter, done),
    register: median('POST /api/verification-codes/register'),
    complete: median('POST /api/application-complete'),
    codeArrives: median(CODE_ARRIVES),
    failed: recorder.failedApplications,
  };
}

/** The cheap routes and their answer: no maintenance window is 404 (the page reads it as none). */
const CHEAP_ROUTES: [string, number][] = [
  ['/api/maintenance', 404],
  [`/api/notifications/${BANK}`, 200],
  ['/term', 200],
];

async function measureDatabase(name: string, port: number, barePort: number, probe: string, databaseUrl: string | null): Promise<Measured> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'kouza-load-'));
  const schema = databaseUrl ? await throwawaySchema(databaseUrl) : null;
  const profile = CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`, `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`] : [];
  const env = benchServerEnv({ dataDir, databaseUrl: schema?.databaseUrl ?? null, smtpUrl: sink.url, banksDir: bankReceiver.banksDir });
  const server = await startProcess([...profile, '--import', probe, 'dist/server/main.js'], port, env, '/term');
  try {
    console.log(`${name}: first 200 on /term ${Math.round(server.startMs)} ms after spawn`);
    await sleep(2_000);
    const idleRssMb = await rssMb(server.pid);

    const bare = await measureBare(barePort);
    const cheap = new Map<string, { perSecond: number; errors: number; cpuUsPerRequest: number }>();
    for (const [route, status] of CHEAP_ROUTES) {
      const before = await cpuMs(server.pid);
      const result = await hammer(server.base + route, status, CHEAP_CONNECTIONS, CHEAP_SECONDS);
      cheap.set(route, { ...result, cpuUsPerRequest: ((await cpuMs(server.pid)) - before) * 1000 / result.requests });
      console.log(`${name}: GET ${route} ${Math.round(result.perSecond)}/s, ${result.errors} errors`);
    }

    // One applicant: SINGLE applications of each flow one after the other, after one to warm up.
    const single = {} as Record<Flow, Single>;
    for (const flow of FLOWS) {
      single[flow] = await oneApplicant(server, flow);
      console.log(`${name}: one applicant, ${SINGLE} ${flow} applications, ${single[flow].cpuMs.toFixed(1)} ms server CPU each`);
    }

    // Saturation (or pacing), with the probe counting statements only (its count by route costs).
    await probeByRoute(server, false);
    const warmup = new Recorder();
    if (WARMUP_SECONDS > 0) {
      const deliveredBefore = bankReceiver.arrived();
      await drive(targetOf(server, warmup), WARMUP_APPLICANTS, WARMUP_SECONDS, null, CHILD_SHARE);
      // Its hand-offs to the bank arrive before the measured load counts its own.
      await bankReceiver.arrivedSince(deliveredBefore, warmup.applications);
      console.log(`${name}: warm-up, ${WARMUP_APPLICANTS} applicants, ${warmup.applications} applications in ${WARMUP_SECONDS} s, ${warmup.errorCount()} errors`);
    }
    const recorder = new Recorder();
    const loadCpu = await cpuMs(server.pid);
    const loadMainThreadCpu = await mainThreadCpuMs(server.pid);
    const loadProbe = await askProbe(server);
    const postgresBefore = databaseUrl ? await postgresCpuMs(databaseUrl) : null;
    const driverBefore = process.cpuUsage();
    const driverDelay = driverLoopDelay();
    const arrivedBefore = bankReceiver.arrived();
    const seconds = await drive(targetOf(server, recorder), APPLICANTS, SECONDS, PACE_SECONDS, CHILD_SHARE);
    const driver = process.cpuUsage(driverBefore);
    const driverLoop = driverDelay.stop();
    const serverProbe = await askProbe(server);
    const postgresAfter = databaseUrl ? await postgresCpuMs(databaseUrl) : null;
    const done = recorder.applications || 1;
    const delivered = await bankReceiver.arrivedSince(arrivedBefore, recorder.applications);
    const load = {
      seconds,
      delivered,
      recorder,
      cpuMs: ((await cpuMs(server.pid)) - loadCpu) / done,
      mainThreadCpuMs: ((await mainThreadCpuMs(server.pid)) - loadMainThreadCpu) / done,
      statements: (serverProbe.statements - loadProbe.statements) / done,
      serverLoop: { p99: serverProbe.loopDelayP99Ms, max: serverProbe.loopDelayMaxMs },
      driverLoop,
      postgresCpuMs: postgresBefore !== null && postgresAfter !== null ? (postgresAfter - postgresBefore) / done : null,
      driverCpuMs: (driver.user + driver.system) / 1000 / done,
    };
    console.log(`${name}: ${APPLICANTS} applicants, ${recorder.applications} applications in ${seconds.toFixed(1)} s, ${recorder.errorCount()} errors`);
    const afterRssMb = await rssMb(server.pid);
    return { name, startMs: server.startMs, idleRssMb, afterRssMb, bare, cheap, single, warmup, load };
  } finally {
    await server.stop();
    if (server.child.exitCode !== 0 && server.child.exitCode !== null) console.log(`${name}: server exited ${server.child.exitCode}: ${server.stderr.join('').slice(-2000)}`);
    await schema?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** A bare Fastify answering GET /hello, in a process of its own, as the floor of the cheap routes. */
async function measureBare(port: number): Promise<{ perSecond: number; cpuUsPerRequest: number }> {
  const script = `import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST });`;
  const bare = await startProcess(['--input-type=module', '-e', script], port, {}, '/hello');
  try {
    const before = await cpuMs(bare.pid);
    const result = await hammer(`${bare.base}/hello`, 200, CHEAP_CONNECTIONS, CHEAP_SECONDS);
    console.log(`bare Fastify: GET /hello ${Math.round(result.perSecond)}/s`);
    return { perSecond: result.perSecond, cpuUsPerRequest: ((await cpuMs(bare.pid)) - before) * 1000 / result.requests };
  } finally {
    await bare.stop();
  }
}

// ---- the report ------------------------------------------------------------------------------

const fixed = (value: number | null | undefined, digits = 0) => (value === null || value === undefined || Number.isNaN(value) ? '-' : value.toFixed(digits));
const msText = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(value < 10 ? 1 : 0)} ms`);

function table(rows: string[][]): void {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  for (const row of rows) console.log(row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd());
}

function report(results: Measured[]): void {
  const pglite = results.find((result) => result.name === 'PGlite');
  const postgres = results.find((result) => result.name === 'PostgreSQL');
  const both = (cell: (m: Measured) => string) => [pglite ? cell(pglite) : '-', postgres ? cell(postgres) : 'not run'];
  const latency = (m: Measured) => latencySummary(m.load.recorder.all());
  const mode = PACE_SECONDS ? `${APPLICANTS} applicants pacing ${PACE_SECONDS} s` : `${APPLICANTS} applicants, no think time`;

  console.log(`\n== per route, ${mode}, ${SECONDS} s: p50 / p95 / p99 / max (count, errors)`);
  for (const m of results) {
    console.log(`-- ${m.name}`);
    const rows = [['route', 'count', 'p50', 'p95', 'p99', 'max', 'errors']];
    for (const [route, samples] of m.load.recorder.latencies) {
      const s = latencySummary(samples);
      rows.push([route, String(s.count), msText(s.median), msText(s.p95), msText(s.p99), msText(s.max), String(m.load.recorder.errors.get(route) ?? 0)]);
    }
    table(rows);
    for (const example of m.load.recorder.examples) console.log(`   error: ${example}`);
  }

  console.log('\n== SQL statements per application by route (the probe in the server; bench/sql-by-route.ts)');
  table(
    sqlByRouteRows(
      results.flatMap((m) => FLOWS.map((flow) => ({ title: `${m.name} one ${flow}`, byRoute: m.single[flow].byRoute }))),
    ),
  );
  console.log('\n== server CPU per request by route, one applicant: median, ms (the probe in the server; bench/cpu-by-route.ts)');
  table(cpuByRouteRows(results.flatMap((m) => FLOWS.map((flow) => ({ title: `${m.name} one ${flow}`, cpu: m.single[flow].cpuByRoute })))));
  if (SQL_TEXTS) {
    for (const m of results) {
      for (const flow of FLOWS) {
        console.log(`-- ${m.name}, one applicant: each route's statements per ${flow} application`);
        for (const line of sqlTextLines(m.single[flow].byRoute)) console.log(line);
      }
    }
  }

  console.log(`\n== goals (issue 13) and this run; machine ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const rows: string[][] = [['measure', 'goal', 'PGlite', 'PostgreSQL']];
  const perFlow = (cell: (single: Single) => string) => (m: Measured) => FLOWS.map((flow) => cell(m.single[flow])).join(' / ');
  const share = `${fixed(CHILD_SHARE * 100)} % child`;
  rows.push(['server CPU per application, one applicant (idle work too): general / child', '<= 30 ms PGlite, <= 15 ms PG', ...both(perFlow((s) => `${fixed(s.cpuMs, 1)} ms`))]);
  rows.push([
    `server CPU per application, under the load below (${share})`,
    '(same)',
    ...both((m) => `${fixed(m.load.cpuMs, 1)} ms, main thread ${fixed(m.load.mainThreadCpuMs, 1)}${m.load.postgresCpuMs === null ? '' : ` (+${fixed(m.load.postgresCpuMs, 1)} ms in PostgreSQL)`}`),
  ]);
  rows.push(['SQL statements per application: general / child', '<= 40 general', ...both((m) => `${perFlow((s) => fixed(s.statements, 1))(m)} (under load ${fixed(m.load.statements, 1)})`)]);
  rows.push([
    `applications/s, ${mode}, ${share}: all (general + child)`,
    '>= 60 on PG',
    ...both((m) => {
      const perSecond = (n: number) => fixed(n / m.load.seconds, 1);
      return `${perSecond(m.load.recorder.applications)} (${FLOWS.map((flow) => perSecond(m.load.recorder.finished[flow])).join(' + ')})`;
    }),
  ]);
  rows.push([
    'request latency p50 / p95 / p99 / max',
    PACE_SECONDS ? 'p99 < 100 ms (1,000 pacing 90 s, PGlite)' : 'p99 < 1 s (PG, saturated)',
    ...both((m) => {
      const s = latency(m);
      return `${msText(s.median)} / ${msText(s.p95)} / ${msText(s.p99)} / ${msText(s.max)}`;
    }),
  ]);
  rows.push(['errors (failed applications)', 'none', ...both((m) => `${m.load.recorder.errorCount()} (${m.load.recorder.failedApplications} of ${m.load.recorder.applications + m.load.recorder.failedApplications})`)]);
  if (WARMUP_SECONDS > 0) rows.push(['  in the warm-up before it', 'none', ...both((m) => `${m.warmup.errorCount()} (${m.warmup.failedApplications} of ${m.warmup.applications + m.warmup.failedApplications})`)]);
  rows.push([`applications at the bank's receiver (within ${DELIVERY_WAIT_MS / 1000} s of the end)`, '', ...both((m) => `${m.load.delivered} of ${m.load.recorder.applications}`)]);
  rows.push(['  failed one-applicant runs: general / child', '', ...both(perFlow((s) => String(s.failed)))]);
  rows.push(['register / completion median, one general applicant', '<= 20 ms', ...both((m) => `${msText(m.single.general.register)} / ${msText(m.single.general.complete)}`)]);
  rows.push([
    'code at the SMTP sink after register, median',
    '',
    ...both((m) => `${msText(m.single.general.codeArrives)} one applicant, ${msText(latencySummary(m.load.recorder.latencies.get(CODE_ARRIVES) ?? []).median)} loaded`),
  ]);
  for (const [route] of CHEAP_ROUTES) {
    rows.push([
      `GET ${route}: req/s, share of bare (CPU/request, bare's share)`,
      '>= 0.6 of bare',
      ...both((m) => {
        const r = m.cheap.get(route);
        // The CPU ratio does not depend on whether the driver or the server was the bottleneck.
        return r ? `${fixed(r.perSecond)}/s ${fixed(r.perSecond / m.bare.perSecond, 2)} (${fixed(r.cpuUsPerRequest)} µs CPU: ${fixed(m.bare.cpuUsPerRequest / r.cpuUsPerRequest, 2)})` : '-';
      }),
    ]);
  }
  rows.push(['  bare Fastify GET /hello, just before', '', ...both((m) => `${fixed(m.bare.perSecond)}/s (${fixed(m.bare.cpuUsPerRequest)} µs CPU)`)]);
  rows.push(['spawn to first 200 on /term (fresh DATA_DIR)', '<= 1.5 s', ...both((m) => msText(m.startMs))]);
  rows.push(['RSS at idle after start', '<= 250 MB PGlite', ...both((m) => `${fixed(m.idleRssMb)} MB`)]);
  rows.push(['RSS after the run', '', ...both((m) => `${fixed(m.afterRssMb)} MB`)]);
  rows.push(['event-loop delay under load p99 / max: server', '', ...both((m) => `${msText(m.load.serverLoop.p99)} / ${msText(m.load.serverLoop.max)}`)]);
  rows.push(['  the driver (a stall here is in every latency)', '', ...both((m) => `${msText(m.load.driverLoop.p99)} / ${msText(m.load.driverLoop.max)}`)]);
  rows.push(['(the driver’s own CPU per application)', '', ...both((m) => `${fixed(m.load.driverCpuMs, 1)} ms`)]);
  // The driver's work is the same in every run: its CPU moves only with the machine's speed and load.
  rows.push([
    '(the server’s CPU per application ÷ the driver’s: steadier across runs on a shared machine than either)',
    '',
    ...both((m) => `${fixed(m.load.cpuMs / m.load.driverCpuMs, 2)}, main thread ${fixed(m.load.mainThreadCpuMs / m.load.driverCpuMs, 2)}`),
  ]);
  table(rows);
}

async function main(): Promise<void> {
  if (!existsSync(path.join(root, 'dist', 'server', 'main.js'))) throw new Error('no dist/server/main.js: npm run build first (npm run bench:load does)');
  console.log(
    `load bench: ${APPLICANTS} applicants for ${SECONDS} s${PACE_SECONDS ? `, pacing ${PACE_SECONDS} s per application` : ', no think time'}` +
      `${WARMUP_SECONDS > 0 ? `, after a ${WARMUP_SECONDS} s warm-up by ${WARMUP_APPLICANTS}` : ', no warm-up'}; ` +
      `cheap routes ${CHEAP_CONNECTIONS} connections × ${CHEAP_SECONDS} s; node ${process.version}`,
  );
  const probe = await compileProbe();
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const results = PGLITE ? [await measureDatabase('PGlite', FIRST_PORT + 1, FIRST_PORT, probe, null)] : [];
  if (databaseUrl) results.push(await measureDatabase('PostgreSQL', FIRST_PORT + 2, FIRST_PORT, probe, databaseUrl));
  else console.log('PostgreSQL: BENCH_DATABASE_URL not set, not run');
  report(results);
  await sink.close();
  await bankReceiver.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
