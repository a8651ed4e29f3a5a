/**
 * npm run bench:cluster (needs BENCH_DATABASE_URL): saturation of `npm run start:cluster` on
 * PostgreSQL with one server process and with CLUSTER_WORKERS (default: this machine's cores),
 * side by side in one run, the two alternating CLUSTER_ROUNDS times (default 2) on a fresh schema
 * each: CLUSTER_APPLICANTS (default 20) applicants running whole general applications with no
 * think time for CLUSTER_SECONDS (default 15), after 3 s of the same to warm up. Per run:
 * applications/s, request latency, errors, the applications that reached the bank's receiver,
 * and CPU per application of the servers (primary and workers), of PostgreSQL and of this
 * driver. Prints, asserts nothing. bench/load.ts measures one process in detail.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { throwawaySchema } from '../tests/api/helpers.js';
import { startCodeSink } from '../tests/api/smtp-sink.js';
import { drive, Recorder } from './applications.js';
import { startBankReceiver } from './bank-receiver.js';
import { postgresCpuMs, processTreeCpuMs, startProcess } from './processes.js';
import { benchServerEnv } from './server-env.js';
import { latencySummary } from './support.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const number = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const WORKERS = number('CLUSTER_WORKERS', availableParallelism());
const ROUNDS = number('CLUSTER_ROUNDS', 2);
const APPLICANTS = number('CLUSTER_APPLICANTS', 20);
const SECONDS = number('CLUSTER_SECONDS', 15);
const WARM_UP_SECONDS = 3;
const PORT = number('CLUSTER_PORT', 3461);

interface Run {
  workers: number;
  perSecond: number;
  latency: ReturnType<typeof latencySummary>;
  failed: number;
  applications: number;
  delivered: number;
  serverCpuMs: number;
  postgresCpuMs: number | null;
  driverCpuMs: number;
}

const sink = await startCodeSink();
const bankReceiver = await startBankReceiver();

async function measure(databaseUrl: string, workers: number): Promise<Run> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'kouza-cluster-'));
  const schema = await throwawaySchema(databaseUrl);
  const env = { ...benchServerEnv({ dataDir, databaseUrl: schema.databaseUrl, smtpUrl: sink.url, banksDir: bankReceiver.banksDir }), WORKERS: String(workers) };
  const server = await startProcess(['dist/server/cluster.js'], PORT, env, '/term');
  try {
    const target = (recorder: Recorder) => ({ base: server.base, recorder, codeFor: sink.codeFor });
    // Every worker answers its first requests (and compiles its code) before the measure.
    await drive(target(new Recorder()), APPLICANTS, WARM_UP_SECONDS, null, 0);
    const recorder = new Recorder();
    const serverBefore = await processTreeCpuMs(server.pid);
    const postgresBefore = await postgresCpuMs(databaseUrl);
    const driverBefore = process.cpuUsage();
    const arrivedBefore = bankReceiver.arrived();
    const seconds = await drive(target(recorder), APPLICANTS, SECONDS, null, 0);
    const driver = process.cpuUsage(driverBefore);
    const serverAfter = await processTreeCpuMs(server.pid);
    const postgresAfter = await postgresCpuMs(databaseUrl);
    const done = recorder.applications || 1;
    const delivered = await bankReceiver.arrivedSince(arrivedBefore, recorder.applications);
    return {
      workers,
      perSecond: recorder.applications / seconds,
      latency: latencySummary(recorder.all()),
      failed: recorder.failedApplications,
      applications: recorder.applications,
      delivered,
      serverCpuMs: (serverAfter - serverBefore) / done,
      postgresCpuMs: postgresBefore !== null && postgresAfter !== null ? (postgresAfter - postgresBefore) / done : null,
      driverCpuMs: (driver.user + driver.system) / 1000 / done,
    };
  } finally {
    await server.stop();
    await schema.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

function report(runs: Run[]): void {
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  console.log(`\n== start:cluster on PostgreSQL, ${APPLICANTS} applicants, general applications, no think time, ${SECONDS} s a run`);
  console.log('processes | applications/s | p50 / p99 / max | failed | at the receiver | CPU per application: servers + PostgreSQL + driver');
  for (const run of runs) {
    const { latency } = run;
    const postgres = run.postgresCpuMs === null ? '-' : ms(run.postgresCpuMs);
    console.log(
      `${run.workers} | ${run.perSecond.toFixed(1)} | ${ms(latency.median)} / ${ms(latency.p99)} / ${ms(latency.max)} | ${run.failed} | ${run.delivered} of ${run.applications} | ` +
        `${ms(run.serverCpuMs)} + ${postgres} + ${ms(run.driverCpuMs)}`,
    );
  }
}

async function main(): Promise<void> {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  if (!databaseUrl) throw new Error('BENCH_DATABASE_URL is needed: start:cluster serves PostgreSQL only');
  if (!existsSync(path.join(root, 'dist', 'server', 'cluster.js'))) throw new Error('no dist/server/cluster.js: npm run build first (npm run bench:cluster does)');
  const runs: Run[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const workers of [1, WORKERS]) {
      runs.push(await measure(databaseUrl, workers));
      console.log(`round ${round + 1}, ${workers} process(es): ${runs.at(-1)?.perSecond.toFixed(1)} applications/s`);
    }
  }
  report(runs);
}

main()
  .then(async () => {
    await sink.close();
    await bankReceiver.close();
    process.exit(0);
  })
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
