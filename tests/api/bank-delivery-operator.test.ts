import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { eq } from 'drizzle-orm';
import { bankDeliveries } from '../../src/server/db/schema.js';
import { enqueueClaimedDelivery, listDeliveries } from '../../src/server/delivery/rows.js';
import { runOperatorCommand } from '../../src/server/operator/commands.js';
import { deliveryProblems } from '../../src/server/plugins/delivery.js';
import { complete, verifiedApplication } from './application-fixtures.js';
import { startTestServer, type TestServer } from './helpers.js';

/**
 * Without a DELIVERY_ENDPOINT outside production the hand-off goes to the server's own
 * development receiver, which checks the signature as a bank would; the operator command lists
 * the deliveries without personal data and re-sends one, which the receiver recognises by its
 * idempotency key. Production refuses to start without an endpoint per bank and the key.
 */

interface Arrival {
  bankCode: string;
  idempotencyKey: string;
  signature: string;
  duplicate: boolean;
}

describe('development receiver and the operator command', () => {
  let server: TestServer;
  beforeAll(async () => {
    const delivery = { ...loadConfig({}).delivery, retryFirstMs: 100, retryMaxMs: 400, pollMs: 50 };
    server = await startTestServer({ name: 'pglite' }, { config: { delivery } });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await server?.close();
  });

  const arrivals = async () => (await server.app.inject({ method: 'GET', url: '/dev/bank-receiver.json' })).json<Arrival[]>();

  async function until(done: () => Promise<boolean>): Promise<void> {
    for (let tries = 0; !(await done()); tries += 1) {
      if (tries > 400) throw new Error('timed out');
      server.clock.current = new Date();
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  const operator = (...argv: string[]) => runOperatorCommand(argv, { db: server.app.db, isBank: () => true, servedFlows: () => server.app.flowVersions.current(), changed: (table) => server.app.changes.changed(table) });

  it('delivers to the development receiver, lists it and re-sends it under the same key', async () => {
    const who = await verifiedApplication(server, { bankCode: '0181' });
    expect((await complete(server, who)).statusCode).toBe(200);
    await until(async () => (await arrivals()).some((arrival) => arrival.idempotencyKey === who.id));
    expect(await arrivals()).toContainEqual(expect.objectContaining({ bankCode: '0181', idempotencyKey: who.id, signature: 'valid', duplicate: false }));
    await until(async () => (await listDeliveries(server.app.db)).some((row) => row.applicationId === who.id && row.state === 'delivered'));

    const listed = await operator('deliveries', 'list');
    expect(listed.exitCode).toBe(0);
    const line = listed.lines.find((text) => text.startsWith(who.id));
    expect(line).toMatch(/\[0181\] delivered attempts 1 delivered 20\d\d-/);
    expect(listed.lines.join('\n')).not.toMatch(/@|ﾔﾏﾀﾞ|山田/);

    const resent = await operator('deliveries', 'resend', '--application', who.id);
    expect(resent).toEqual({ exitCode: 0, lines: [`Delivery of application ${who.id} will be sent again now.`] });
    await until(async () => (await arrivals()).filter((arrival) => arrival.idempotencyKey === who.id).length === 2);
    expect((await arrivals())[0]).toMatchObject({ idempotencyKey: who.id, signature: 'valid', duplicate: true });
  });

  it('delivers a delivery queued claimed by a process that died only once its lock has run out, by any worker', async () => {
    const who = await verifiedApplication(server, { bankCode: '0181' });
    expect((await complete(server, who)).statusCode).toBe(200);
    const sent = async () => (await arrivals()).filter((arrival) => arrival.idempotencyKey === who.id).length;
    await until(async () => (await listDeliveries(server.app.db)).some((row) => row.applicationId === who.id && row.state === 'delivered'));
    const before = await sent();
    // Queued again as a completing process queues it, claimed, and never handed: it died.
    await server.app.db.delete(bankDeliveries).where(eq(bankDeliveries.applicationId, who.id));
    const { lockMs } = server.config.delivery;
    expect(await enqueueClaimedDelivery(server.app.db, who.id, '0181', server.clock.now(), lockMs)).not.toBeNull();
    server.app.deliveries.wake();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await sent()).toBe(before);
    // Its lock ended (queued that long ago): the next round takes it.
    await server.app.db.delete(bankDeliveries).where(eq(bankDeliveries.applicationId, who.id));
    expect(await enqueueClaimedDelivery(server.app.db, who.id, '0181', new Date(Date.now() - lockMs - 1_000), lockMs)).not.toBeNull();
    // Queued once only: a second claimed insert of the same application is nobody's to send.
    expect(await enqueueClaimedDelivery(server.app.db, who.id, '0181', server.clock.now(), lockMs)).toBeNull();
    server.app.deliveries.wake();
    await until(async () => (await sent()) === before + 1);
    // Marked delivered once the worker's gathering of taken deliveries ends (markGatherMs).
    await until(async () => (await listDeliveries(server.app.db)).some((row) => row.applicationId === who.id && row.state === 'delivered'));
    expect((await listDeliveries(server.app.db)).find((row) => row.applicationId === who.id)).toMatchObject({ state: 'delivered', attempts: 2 });
  });

  it('refuses a re-send of an application without a delivery, and without --application', async () => {
    expect((await operator('deliveries', 'resend', '--application', '00000000-0000-4000-8000-000000000000')).exitCode).toBe(1);
    expect((await operator('deliveries', 'resend', '--application', 'not-an-id')).exitCode).toBe(1);
    expect((await operator('deliveries', 'resend')).exitCode).toBe(2);
  });

  it('answers 401 to a delivery not signed with our key', async () => {
    const answer = await server.app.inject({ method: 'POST', url: '/dev/bank-receiver/0177', headers: { 'content-type': 'application/json', 'x-delivery-timestamp': '1', 'x-delivery-signature': 'A'.repeat(86) }, payload: '{}' });
    expect(answer.statusCode).toBe(401);
  });

  it('names what production lacks: an endpoint per bank and the signing key file', () => {
    const production = { ...server.config, production: true };
    const problems = deliveryProblems(production, server.banks);
    expect(problems).toEqual([
      ...server.banks.all().map((bank) => `banks/${bank.code}/bank.json: DELIVERY_ENDPOINT (https) is required in production`),
      'DELIVERY_SIGNING_KEY_FILE is required in production (docs/adr/0033)',
    ]);
    expect(deliveryProblems(server.config, server.banks)).toEqual([]);
  });
});

describe('the marks of deliveries the banks took', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Gathered for an hour: only the worker's stop writes them.
    const delivery = { ...loadConfig({}).delivery, pollMs: 50, markGatherMs: 60 * 60 * 1000 };
    server = await startTestServer({ name: 'pglite' }, { config: { delivery } });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('are gathered after the bank took them, and written at once when the worker stops', async () => {
    const who = await verifiedApplication(server, { bankCode: '0177' });
    expect((await complete(server, who)).statusCode).toBe(200);
    const arrived = async () => (await server.app.inject({ method: 'GET', url: '/dev/bank-receiver.json' })).json<Arrival[]>().some((arrival) => arrival.idempotencyKey === who.id);
    for (let tries = 0; !(await arrived()); tries += 1) {
      if (tries > 400) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const stateOf = async () => (await listDeliveries(server.app.db)).find((row) => row.applicationId === who.id)?.state;
    expect(await stateOf()).toBe('pending');
    await server.app.deliveries.stop();
    expect(await stateOf()).toBe('delivered');
  });
});
