import { createHash, createPublicKey, verify } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { listDeliveries } from '../../src/server/delivery/rows.js';
import { complete, verifiedApplication } from './application-fixtures.js';
import { asc, eq } from 'drizzle-orm';
import { applicationForms, applications, bankDeliveries, ekycSessions } from '../../src/server/db/schema.js';
import { toJstIso } from '../../src/server/time.js';
import { backends, captureLog, startTestServer, withDeliveryEndpoints, type TestServer } from './helpers.js';

/**
 * Issue 15: every completed application reaches its bank exactly once in effect. A real HTTP
 * receiver on a loopback port plays the bank: it verifies our signature with our public key (as
 * the bank would, with node:crypto rather than our code), answers 503 to the first three
 * deliveries, is then stopped for a while (connections refused) during which our server is
 * restarted on the same database, and comes back; by then every application must have arrived,
 * each accepted once, with a valid signature.
 */

interface Arrival {
  key: string;
  applicationId: string;
  signatureValid: boolean;
  signature: string;
  status: number;
  document: Record<string, unknown>;
  /** SHA-256 (hex) of the body as received. */
  bodySha256: string;
}

class BankReceiver {
  readonly arrivals: Arrival[] = [];
  private server: Server | null = null;
  port = 0;

  constructor(
    private readonly publicKeyPem: () => string,
    private readonly failFirst: number,
    private readonly onFailuresDone: () => void,
  ) {}

  async start(): Promise<void> {
    const server = createServer((request, response) => void this.handle(request).then((status) => response.writeHead(status).end()));
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/applications`;
  }

  private async handle(request: IncomingMessage): Promise<number> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const timestamp = String(request.headers['x-delivery-timestamp']);
    const signature = Buffer.from(String(request.headers['x-delivery-signature']), 'base64url');
    const signatureValid = verify(null, Buffer.concat([Buffer.from(`${timestamp}.`), body]), createPublicKey(this.publicKeyPem()), signature);
    const document = JSON.parse(body.toString('utf8')) as Record<string, unknown> & { applicationId: string };
    const key = String(request.headers['idempotency-key']);
    const failing = this.arrivals.length < this.failFirst;
    // The bank's own rule: a key it has taken before is answered as done, never a second account.
    const status = !signatureValid ? 401 : failing ? 503 : 200;
    const bodySha256 = createHash('sha256').update(body).digest('hex');
    this.arrivals.push({ key, applicationId: document.applicationId, signatureValid, signature: signature.toString('base64url'), status, document, bodySha256 });
    if (failing && this.arrivals.length === this.failFirst) this.onFailuresDone();
    return status;
  }
}

const APPLICATIONS = 5;

describe.each(backends)('hand-off to the bank ($name)', (backend) => {
  let server: TestServer;
  /** The server process as restarted (PGlite on disk, or the same PostgreSQL schema). */
  let app: FastifyInstance;
  let dataDir: string;
  let publicKeyPem = '';
  const log = captureLog();
  let stoppedAt: number | null = null;
  let receiverDown: Promise<void> | null = null;
  const receiver = new BankReceiver(
    // Our public key as the bank was given it before the restart.
    () => publicKeyPem,
    3,
    () => {
      // After the third refusal the bank's endpoint goes away for a while.
      stoppedAt = Date.now();
      receiverDown = receiver.stop();
    },
  );

  beforeAll(async () => {
    await receiver.start();
    // Retry timings shortened by configuration: the defaults are 10 s doubling to 30 min.
    const delivery = { ...loadConfig({}).delivery, retryFirstMs: 100, retryMaxMs: 400, pollMs: 50, timeoutMs: 2_000 };
    // On disk for PGlite, so that a restart finds what the first process queued.
    dataDir = await mkdtemp(path.join(tmpdir(), 'kouza-delivery-'));
    server = await startTestServer(backend, { config: { delivery, dataDir, logLevel: 'info' }, logStream: log.stream, banks: (banks) => withDeliveryEndpoints(banks, () => receiver.url) });
    app = server.app;
    publicKeyPem = app.deliveryKey.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  });
  afterAll(async () => {
    if (app !== server?.app) await app?.close();
    await server?.close();
    await receiver.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Stops our server (what it was sending is given back) and starts a new one on the same database. */
  async function restart(): Promise<void> {
    await app.close();
    app = await buildApp(server.config, { banks: server.banks, now: server.clock.now, logStream: log.stream });
    await app.ready();
  }

  /** Keeps the server's clock at the real time (its retries fall due) until `done` holds. */
  async function until(done: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
    const started = Date.now();
    while (!(await done())) {
      if (Date.now() - started > timeoutMs) throw new Error('timed out');
      server.clock.current = new Date();
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it('delivers every completed application exactly once after failures and an outage, signed', async () => {
    const completed: string[] = [];
    for (const bankCode of ['0177', '0587', '0181', '0177', '0587'].slice(0, APPLICATIONS)) {
      const who = await verifiedApplication(server, { bankCode });
      expect((await complete(server, who)).statusCode).toBe(200);
      completed.push(who.id);
    }
    // Failed three times, then refused while the receiver is down.
    await until(() => stoppedAt !== null, 10_000);
    await receiverDown;
    // Down until every application has been refused a connection at least once.
    await until(async () => (await listDeliveries(app.db)).every((row) => row.lastError === 'ECONNREFUSED' && row.state === 'failed'), 15_000);
    await restart();

    await receiver.start();
    await until(async () => (await listDeliveries(app.db)).every((row) => row.state === 'delivered'), 20_000);

    const rows = await listDeliveries(app.db);
    expect(rows.map((row) => row.applicationId).sort()).toEqual([...completed].sort());
    const accepted = receiver.arrivals.filter((arrival) => arrival.status === 200);
    const acceptedKeys = accepted.map((arrival) => arrival.key);
    // Each application taken once, under its own key, with a valid signature.
    expect([...acceptedKeys].sort()).toEqual([...completed].sort());
    expect(accepted.every((arrival) => arrival.signatureValid && arrival.key === arrival.applicationId)).toBe(true);
    expect(receiver.arrivals.filter((arrival) => arrival.status === 503)).toHaveLength(3);
    // What the bank is handed: answers, images, the identity check with its verification record
    // and the core system's kana.
    expect(accepted[0]?.document).toMatchObject({
      format: 'kouza-application/1',
      idempotencyKey: accepted[0]?.key,
      answers: { personal: { kanaLastName: 'ﾔﾏﾀﾞ' } },
      coreSystem: { 'personal.accountName': 'ﾔﾏﾀﾞ ﾊﾅｺ' },
      identityCheck: { provider: 'simulator', status: 4 },
      verificationRecords: [{ subjectRole: 'APPLICANT', method: 'IMAGE_SELFIE_PHOTO_ID', provider: 'simulator', corrects: null }],
    });
    // What we keep of each delivered body is its hash (ADR 0036): the one of the body the bank took.
    const kept = await app.db.select({ id: bankDeliveries.applicationId, sha256: bankDeliveries.payloadSha256 }).from(bankDeliveries);
    expect(Object.fromEntries(kept.map((row) => [row.id, row.sha256]))).toEqual(Object.fromEntries(accepted.map((arrival) => [arrival.key, arrival.bodySha256])));
    // The check as its session holds it (the time in Japan time), and every form's answers as stored, in the forms' order.
    const firstId = String(accepted[0]?.key);
    const [session] = await app.db.select({ decidedAt: ekycSessions.decidedAt }).from(ekycSessions).where(eq(ekycSessions.applicationId, firstId));
    expect(accepted[0]?.document).toMatchObject({ identityCheck: { supplement: false, decidedAt: session?.decidedAt ? toJstIso(session.decidedAt) : 'none' } });
    const forms = await app.db.select({ form: applicationForms.form, answers: applicationForms.answers }).from(applicationForms).where(eq(applicationForms.applicationId, firstId)).orderBy(asc(applicationForms.form));
    expect(JSON.stringify(accepted[0]?.document.answers)).toBe(JSON.stringify(Object.fromEntries(forms.map((row) => [row.form, row.answers]))));
    const duplicates = acceptedKeys.length - new Set(acceptedKeys).size;
    expect(duplicates).toBe(0);
    const attempts = rows.reduce((sum, row) => sum + row.attempts, 0);
    expect(attempts).toBeGreaterThan(APPLICATIONS + 3);
    // The log tells what happened by application id, bank, attempts and error code only.
    const deliveryLines = log.lines.filter((line) => line.includes('bank delivery'));
    expect(deliveryLines.some((line) => line.includes('"error":"http 503"'))).toBe(true);
    expect(deliveryLines.some((line) => line.includes('"error":"ECONNREFUSED"'))).toBe(true);
    expect(deliveryLines.filter((line) => line.includes('bank delivery: delivered'))).toHaveLength(APPLICATIONS);
    const addresses = (await app.db.select({ mail: applications.mailAddress }).from(applications)).flatMap((row) => (row.mail ? [row.mail] : []));
    const secrets = [...addresses, ...receiver.arrivals.map((arrival) => arrival.signature), 'ﾔﾏﾀﾞ', '山田', '花子', publicKeyPem.split('\n')[1] ?? 'no key'];
    expect(log.lines.filter((line) => secrets.some((secret) => line.includes(secret)))).toEqual([]);
    // The figures docs/operations.md quotes.
    console.info(
      `bank delivery (${backend.name}): completed ${APPLICATIONS}, attempts ${attempts} (received ${receiver.arrivals.length}, refused 503: 3, ` +
        `connection refused: ${attempts - receiver.arrivals.length}), delivered ${accepted.length}, duplicates ${duplicates}`,
    );
  }, 60_000);
});
