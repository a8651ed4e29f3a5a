/**
 * npx tsx bench/mail.ts [N]
 *
 * Prints, with no assertions, side by side in one run against a local SMTP sink (smtp-server):
 * - POST /api/verification-codes/register (the code and its mail queued in one transaction,
 *   answered at once) against a bare Fastify POST, through app.inject: median and p95 of N calls;
 * - how long the queue then takes to hand all N mails to the SMTP server;
 * - one mail sent over a pooled transport (as the queue does) against a new connection per
 *   mail (as before), N each.
 */
import { cpus, loadavg } from 'node:os';
import Fastify from 'fastify';
import nodemailer from 'nodemailer';
import { buildApp } from '../src/server/app.js';
import { loadBanks } from '../src/server/banks/registry.js';
import { startSmtpSink } from '../tests/api/smtp-sink.js';
import { benchConfig, medianAndP95 } from './support.js';

const N = Number(process.argv[2] ?? 200);
let received = 0;
const sink = await startSmtpSink(() => {
  received += 1;
});
const smtpUrl = sink.url;

const ms = (value: number) => `${value.toFixed(2)} ms`;
async function timed(times: number[], run: () => Promise<unknown>) {
  const start = performance.now();
  await run();
  times.push(performance.now() - start);
}

// A bare Fastify POST with a body of the same shape.
const bare = Fastify();
bare.post('/register', async () => ({}));
const body = { bankCode: '0177', mailAddress: 'bench@example.jp', applicationType: 'GENERAL' };
for (let i = 0; i < 50; i += 1) await bare.inject({ method: 'POST', url: '/register', payload: body });
const bareTimes: number[] = [];
for (let i = 0; i < N; i += 1) await timed(bareTimes, () => bare.inject({ method: 'POST', url: '/register', payload: body }));

const config = benchConfig({ smtpUrl, rateLimit: { addressPerHour: 1_000_000, ipPerHour: 1_000_000, verifyIpPerHour: 1_000_000 } });
const banks = await loadBanks(config.banksDir);
const bank = banks.get('0177');
if (!bank) throw new Error('bank 0177 missing');
const app = await buildApp(config, { banks });
await app.ready();
const register = (i: number) =>
  app.inject({ method: 'POST', url: '/api/verification-codes/register', headers: { host: bank.DOMAIN }, payload: { ...body, mailAddress: `bench${i}@example.jp` } });
for (let i = 0; i < 20; i += 1) await register(-1 - i);
await app.mailQueue.flush();
received = 0;
const registerTimes: number[] = [];
const sendStart = performance.now();
for (let i = 0; i < N; i += 1) await timed(registerTimes, () => register(i));
await app.mailQueue.flush();
while (received < N) await new Promise((resolve) => setTimeout(resolve, 5));
const allSentMs = performance.now() - sendStart;
await app.close();

// One mail per send: a pooled transport against a new connection each time.
const message = { from: 'bench@example.jp', to: 'to@example.jp', subject: 'bench', text: 'bench' };
const pooled = nodemailer.createTransport({ url: smtpUrl, pool: true, ignoreTLS: true });
const fresh = nodemailer.createTransport({ url: smtpUrl, ignoreTLS: true });
const pooledTimes: number[] = [];
const freshTimes: number[] = [];
for (let i = 0; i < N; i += 1) await timed(pooledTimes, () => pooled.sendMail(message));
for (let i = 0; i < N; i += 1) await timed(freshTimes, () => fresh.sendMail(message));
pooled.close();
fresh.close();
await sink.close();

const bareSummary = medianAndP95(bareTimes);
const registerSummary = medianAndP95(registerTimes);
const pooledSummary = medianAndP95(pooledTimes);
const freshSummary = medianAndP95(freshTimes);
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}; N = ${N}`);
console.log(`bare Fastify POST          median ${ms(bareSummary.median)}  p95 ${ms(bareSummary.p95)}`);
console.log(`POST register (queued)     median ${ms(registerSummary.median)}  p95 ${ms(registerSummary.p95)}  (${(registerSummary.median / bareSummary.median).toFixed(1)}× bare)`);
console.log(`all ${N} mails at the SMTP server ${ms(allSentMs)} after the first request`);
console.log(`one mail, pooled transport median ${ms(pooledSummary.median)}  p95 ${ms(pooledSummary.p95)}`);
console.log(`one mail, new connection  median ${ms(freshSummary.median)}  p95 ${ms(freshSummary.p95)}  (${(freshSummary.median / pooledSummary.median).toFixed(1)}× pooled)`);
