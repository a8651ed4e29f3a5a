/**
 * npm run bench:start -- [RUNS] [SERVER.js …]   (builds first; RUNS default 3; port BENCH_PORT, 3451)
 *
 * Prints, with no assertions, the medians of RUNS runs of each built server (default
 * dist/server/main.js; name several, e.g. a copy of an older build, to compare them in one run)
 * against a bare Fastify "hello" started the same way (`node`, its own process):
 * - ms from spawn to the first 200 on GET /term, on a fresh DATA_DIR and on a restart with it,
 *   and the CPU time the server process spent until then (less moved by other work on the
 *   machine than the wall time);
 * - RSS at that first answer, and at idle IDLE_MS (default 10000) after it;
 * - the first address lookup and the first furigana reading of a signed-in applicant (ms), and
 *   RSS after both, with the peak RSS (VmHWM) the process reached.
 * The embedded PGlite, no SMTP (mail goes to DATA_DIR/outbox, whence the code is read).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { medianAndP95 } from './support.js';
import { cpuMs } from './processes.js';
import { memoryOf, sleep, spawnUntilAnswer, stop, type Spawned } from './spawned.js';

const RUNS = Number(process.argv[2] ?? 3);
const SERVERS = process.argv.slice(3).length > 0 ? process.argv.slice(3) : ['dist/server/main.js'];
const IDLE_MS = Number(process.env.IDLE_MS ?? 10000);
// BENCH_PORT: to run beside another bench or server on the same machine.
const PORT = Number(process.env.BENCH_PORT ?? 3451);
const base = `http://127.0.0.1:${PORT}`;
const env = { PORT: String(PORT), HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'development' };

// The baseline: the same framework answering the same path with nothing behind it.
const BARE = `import Fastify from 'fastify';
const app = Fastify({ logger: { level: 'warn' } });
app.get('/term', async () => 'hello');
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST });`;

type Sample = Record<string, number>;

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await run();
  return { ms: performance.now() - started, value };
}

async function call(method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}, body?: unknown): Promise<unknown> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`${method} ${url.split('?')[0]} answered ${response.status}`);
  return response.json();
}

/** A signed-in applicant of the default bank, through register, the outbox and verify. */
async function signIn(): Promise<string> {
  const who = { bankCode: '0177', mailAddress: `bench-${Date.now()}@example.jp`, applicationType: 'GENERAL' };
  await call('POST', '/api/verification-codes/register', {}, who);
  for (let tries = 0; tries < 500; tries += 1) {
    const mails = (await call('GET', `/dev/outbox.json?to=${encodeURIComponent(who.mailAddress)}`)) as Array<{ text: string }>;
    const code = /認証コード：(\d{6})/.exec(mails[0]?.text ?? '')?.[1];
    if (code) {
      const verified = (await call('POST', '/api/verification-codes/verify', {}, { ...who, verificationCode: code })) as { authenticationToken: string };
      return verified.authenticationToken;
    }
    await sleep(10);
  }
  throw new Error('no verification mail in the outbox');
}

/** The first answer's figures of a started process: ms, CPU ms and RSS then, and RSS at idle after IDLE_MS. */
async function firstAnswer(started: Spawned, label: string): Promise<Sample> {
  const pid = started.child.pid ?? 0;
  const cpu = await cpuMs(pid);
  const rss = (await memoryOf(pid)).rss;
  await sleep(IDLE_MS);
  return {
    [`start ${label} (ms)`]: started.firstAnswerMs,
    [`CPU to answer ${label} (ms)`]: cpu,
    [`RSS at answer ${label} (MB)`]: rss,
    [`idle RSS ${label} (MB)`]: (await memoryOf(pid)).rss,
  };
}

async function runServer(server: string): Promise<Sample> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-start-'));
  const sample: Sample = {};
  try {
    const fresh = await spawnUntilAnswer([server], { ...env, DATA_DIR: dataDir }, `${base}/term`);
    try {
      Object.assign(sample, await firstAnswer(fresh, 'fresh'));
      const auth = { authorization: `Bearer ${await signIn()}` };
      sample['first postal (ms)'] = (await timed(() => call('GET', '/api/addresses?postalNumber=8600046', auth))).ms;
      sample['first furigana (ms)'] = (await timed(() => call('GET', `/api/furigana?kanji=${encodeURIComponent('佐藤花子')}`, auth))).ms;
      await sleep(1000);
      const after = await memoryOf(fresh.child.pid ?? 0);
      sample['RSS after lookups (MB)'] = after.rss;
      sample['peak RSS (MB)'] = after.peak;
    } finally {
      await stop(fresh.child);
    }
    const restart = await spawnUntilAnswer([server], { ...env, DATA_DIR: dataDir }, `${base}/term`);
    try {
      Object.assign(sample, await firstAnswer(restart, 'restart'));
    } finally {
      await stop(restart.child);
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  return sample;
}

async function runBare(): Promise<Sample> {
  const bare = await spawnUntilAnswer(['--input-type=module', '-e', BARE], env, `${base}/term`);
  try {
    return await firstAnswer(bare, 'fresh');
  } finally {
    await stop(bare.child);
  }
}

/** Per figure: the median of the runs and their range (a busy machine moves single runs a lot). */
function medians(samples: Sample[]): Map<string, { median: number; min: number; max: number }> {
  const keys = [...new Set(samples.flatMap((sample) => Object.keys(sample)))];
  return new Map(
    keys.map((key) => {
      const values = samples.map((sample) => sample[key] ?? Number.NaN);
      return [key, { median: medianAndP95(values).median, min: Math.min(...values), max: Math.max(...values) }];
    }),
  );
}

async function main(): Promise<void> {
  const results = new Map<string, Sample[]>([['bare Fastify', []], ...SERVERS.map((server): [string, Sample[]] => [server, []])]);
  // Interleaved, so a busy moment of the machine falls on every column alike.
  for (let run = 0; run < RUNS; run += 1) {
    results.get('bare Fastify')?.push(await runBare());
    for (const server of SERVERS) results.get(server)?.push(await runServer(server));
  }
  const table = new Map([...results].map(([name, samples]) => [name, medians(samples)]));
  const bare = table.get('bare Fastify');
  const rows = [...new Set([...table.values()].flatMap((figures) => [...figures.keys()]))];
  const names = [...table.keys()];
  const width = Math.max(30, ...names.map((name) => name.length + 2));
  console.log(`medians [ranges] of ${RUNS} runs; idle = ${IDLE_MS} ms after the first answer; load ${loadavg()[0]?.toFixed(1)} on ${cpus().length} CPUs`);
  console.log(`${''.padEnd(28)}${names.map((name) => name.padStart(width)).join('')}`);
  for (const row of rows) {
    const cells = names.map((name) => {
      const figure = table.get(name)?.get(row);
      if (figure === undefined) return '-'.padStart(width);
      const base = bare?.get(row)?.median;
      const ratio = name !== 'bare Fastify' && base ? ` ${(figure.median / base).toFixed(1)}x` : '';
      return `${figure.median.toFixed(0)} [${figure.min.toFixed(0)}-${figure.max.toFixed(0)}]${ratio}`.padStart(width);
    });
    console.log(`${row.padEnd(28)}${cells.join('')}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
