/**
 * npx tsx bench/lookups.ts [N]
 *
 * Prints, with no assertions:
 * - server start: buildApp + listen until ready (PGlite in memory, migrations, master data),
 *   and how long after that the furigana dictionary is ready (it loads in the background
 *   once the server listens), with the memory it takes;
 * - the warm per-call time of the address lookup and of furigana, as a function call and
 *   through app.inject (routing, the session check against the database, JSON), side by
 *   side: median and 95th percentile of N calls (default 1000), and their ratio;
 * - the first (cold) lookup of a postal file.
 */
import { cpus, loadavg } from 'node:os';
import { buildApp } from '../src/server/app.js';
import { benchConfig, medianAndP95 } from './support.js';
import { hashAuthToken, newAuthToken } from '../src/server/crypto.js';
import { applications, authTokens } from '../src/server/db/schema.js';
import { PostalLookup } from '../src/server/postal/index.js';

const N = Number(process.argv[2] ?? 1000);
const HOUR = 60 * 60 * 1000;

const config = benchConfig();

const ms = (value: number) => `${value.toFixed(value < 1 ? 3 : 1)} ms`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;


async function timeEach(count: number, run: () => Promise<unknown>): Promise<{ median: number; p95: number }> {
  const samples: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return medianAndP95(samples);
}

async function main(): Promise<void> {
  // 1. Start, with a cold dictionary (nothing in this process has read it yet).
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const app = await buildApp(config);
  await app.listen({ port: config.port, host: config.host });
  const listening = performance.now();
  const rssListening = process.memoryUsage().rss;
  while (!app.furigana.ready) await new Promise((resolve) => setTimeout(resolve, 5));
  const furiganaReady = performance.now();
  const rssAfter = process.memoryUsage().rss;

  console.log('server start (PGlite in memory, migrations, master data seeded)');
  console.log(`  buildApp + listen until ready : ${ms(listening - started)}`);
  console.log(`  furigana ready after listen   : ${ms(furiganaReady - listening)} (${ms(furiganaReady - started)} from the start)`);
  console.log(`  process RSS                   : ${mb(rssBefore)} before, ${mb(rssListening)} listening, ${mb(rssAfter)} with the dictionary`);
  console.log(`  load average (1 min)          : ${loadavg()[0]?.toFixed(1)} on ${cpus().length} CPUs (numbers scale with it)`);

  // A signed-in applicant, written directly (no mail round trip needed for a benchmark).
  const token = newAuthToken();
  const now = new Date();
  const [row] = await app.db
    .insert(applications)
    .values({ bankCode: '0587', applicationType: 'GENERAL', mailAddress: 'bench@example.com' })
    .returning({ id: applications.id });
  if (!row) throw new Error('no application row');
  await app.db
    .insert(authTokens)
    .values({ tokenHash: hashAuthToken(token), applicationId: row.id, lastSeenAt: now, expiresAt: new Date(now.getTime() + 12 * HOUR) });
  const host = app.banks.get('0587')?.DOMAIN ?? 'localhost';
  const inject = async (url: string) => {
    const response = await app.inject({ method: 'GET', url, headers: { host, authorization: `Bearer ${token}` } });
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
  };

  // 2. Cold postal file: a fresh lookup reads and parses one file.
  const fresh = new PostalLookup();
  const coldStarted = performance.now();
  await fresh.find('8600046');
  const cold = performance.now() - coldStarted;

  // 3. Warm per-call times (one untimed call first so every cache is filled).
  const kanji = '佐藤花子';
  const kanjiQuery = encodeURIComponent(kanji);
  await app.postal.find('8600046');
  await inject('/api/addresses?postalNumber=8600046');
  await app.furigana.read(kanji);
  await inject(`/api/furigana?kanji=${kanjiQuery}`);

  const addressFunction = await timeEach(N, () => app.postal.find('8600046'));
  const addressInject = await timeEach(N, () => inject('/api/addresses?postalNumber=8600046'));
  const furiganaFunction = await timeEach(N, () => app.furigana.read(kanji));
  const furiganaInject = await timeEach(N, () => inject(`/api/furigana?kanji=${kanjiQuery}`));

  console.log(`\nper call, warm, N=${N}          function (median / p95)      app.inject (median / p95)     inject : function`);
  const line = (label: string, fn: { median: number; p95: number }, http: { median: number; p95: number }) =>
    console.log(
      `  ${label.padEnd(28)} ${`${ms(fn.median)} / ${ms(fn.p95)}`.padEnd(28)} ${`${ms(http.median)} / ${ms(http.p95)}`.padEnd(29)} ${(http.median / fn.median).toFixed(0)}x`,
    );
  line('address 8600046', addressFunction, addressInject);
  line('furigana (4 kanji)', furiganaFunction, furiganaInject);
  console.log(`\n  first lookup of a postal file (read + parse 860.json): ${ms(cold)} = ${(cold / addressFunction.median).toFixed(0)}x a warm lookup`);
  console.log(`  furigana dictionary load: ${ms(furiganaReady - listening)} = ${((furiganaReady - listening) / furiganaFunction.median).toFixed(0)}x a warm reading`);

  await app.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
