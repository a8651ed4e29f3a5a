import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applicationForms, applications } from '../../src/server/db/schema.js';
import { storeDocument } from '../../src/server/forms/documents.js';
import { httpMessages } from '../../src/server/http-messages.js';
import { formatApplicationNumber } from '../../src/server/routes/completion.js';
import {
  complete,
  confirmedApplication,
  decide,
  headersOf,
  saveSteps,
  setPin,
  signedIn,
  startEkyc,
  upload,
  uploadOk,
  verifiedApplication,
  type Signed,
} from './application-fixtures.js';
import { backends, startTestServer, type TestServer } from './helpers.js';

interface Completed {
  applicationNumber: string;
  applicationCompletedAt: string;
}

describe.each(backends)('completion ($name)', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => server.clock.reset());

  const mailsTo = async (who: Signed) => {
    const [row] = await server.app.db.select({ mail: applications.mailAddress }).from(applications).where(eq(applications.id, who.id));
    return (await server.outbox.list()).filter((mail) => mail.to === row?.mail && mail.subject.includes('受け付けました'));
  };

  it('gives the number <bank>-<yyMMdd>-<sequence> and the time in Japan time, and mails the applicant', async () => {
    server.clock.current = new Date('2025-06-14T15:30:00Z'); // 2025-06-15 00:30 in Japan
    const who = await verifiedApplication(server, { bankCode: '0587' });
    const response = await complete(server, who);
    expect(response.statusCode).toBe(200);
    const body = response.json<Completed>();
    expect(body.applicationNumber).toMatch(/^0587-250615-\d{6}$/);
    expect(body.applicationCompletedAt).toBe('2025-06-15T00:30:00+09:00');

    const [mail, ...others] = await mailsTo(who);
    expect(others).toEqual([]);
    expect(mail?.from).toEqual({ name: '熊本銀行', address: server.banks.get('0587')?.MAIL_ADDRESS });
    expect(mail?.subject).toBe('【熊本銀行】口座開設のお申込みを受け付けました');
    const contact = server.banks.get('0587')?.CONTACT_INFORMATION;
    for (const text of [body.applicationNumber, '2025年6月15日 0時30分', '郵送', '1～2週間', contact?.name, contact?.phoneNumber, contact?.receptionHours]) {
      expect(mail?.text).toContain(text);
    }

    const application = await server.app.inject({ method: 'GET', url: '/api/applications', headers: headersOf(server, who) });
    expect(application.json()).toMatchObject({ application: body });
  });

  it('answers the same number and time again, without a second mail or application', async () => {
    const who = await verifiedApplication(server);
    const first = (await complete(server, who)).json<Completed>();
    server.clock.advance(60_000);
    const second = await complete(server, who);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first);
    expect(await mailsTo(who)).toHaveLength(1);
    const rows = await server.app.db.select().from(applications).where(eq(applications.applicationNumber, first.applicationNumber));
    expect(rows).toHaveLength(1);
  });

  it('gives one number to two calls at the same moment', async () => {
    const who = await verifiedApplication(server);
    const answers = await Promise.all([complete(server, who), complete(server, who), complete(server, who)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    const numbers = new Set(answers.map((answer) => answer.json<Completed>().applicationNumber));
    expect(numbers.size).toBe(1);
    expect(await mailsTo(who)).toHaveLength(1);
  });

  it('numbers the applications of a bank and day one after the other, and different applications differently at once', async () => {
    const all = await Promise.all([verifiedApplication(server, { bankCode: '0181' }), verifiedApplication(server, { bankCode: '0181' }), verifiedApplication(server, { bankCode: '0181' })]);
    const numbers = (await Promise.all(all.map((who) => complete(server, who)))).map((answer) => answer.json<Completed>().applicationNumber);
    expect(new Set(numbers).size).toBe(3);
    const sequences = numbers.map((number) => Number(number.slice(-6))).sort((a, b) => a - b);
    expect(sequences[1]).toBe((sequences[0] ?? 0) + 1);
    expect(sequences[2]).toBe((sequences[0] ?? 0) + 2);
  });

  it('answers 409 until the steps, the PIN and the approved identity check are done', async () => {
    const who = await signedIn(server);
    expect((await complete(server, who)).json()).toEqual({ message: httpMessages.stepsIncomplete });
    await saveSteps(server, who);
    expect((await complete(server, who)).json()).toEqual({ message: httpMessages.pinNotSet });
    expect((await setPin(server, who)).statusCode).toBe(200);
    expect((await complete(server, who)).json()).toEqual({ message: httpMessages.ekycNotApproved });
    const url = (await startEkyc(server, who)).json<{ url: string }>().url;
    expect((await complete(server, who)).statusCode).toBe(409);
    await decide(server, who, url, 'reject');
    expect((await complete(server, who)).statusCode).toBe(409);
    await decide(server, who, (await startEkyc(server, who)).json<{ url: string }>().url, 'approve');
    expect((await complete(server, who)).statusCode).toBe(200);
    const [row] = await server.app.db.select().from(applications).where(eq(applications.id, who.id));
    expect(row?.applicationNumber).toBeTruthy();
  });

  it('waits for every form its flow asks before the PIN (the seal choice; for a child, the parent’s workplace)', async () => {
    const general = await verifiedApplication(server, { outcome: 'approve' });
    await server.app.db
      .delete(applicationForms)
      .where(and(eq(applicationForms.applicationId, general.id), eq(applicationForms.form, 'sealLess')));
    expect((await complete(server, general)).json()).toEqual({ message: httpMessages.stepsIncomplete });
    await storeDocument(server.app.db, general.id, 'sealLess', { sealLess: false }, server.clock.now());
    expect((await complete(server, general)).statusCode).toBe(200);

    const child = await verifiedApplication(server, { applicationType: 'CHILD', outcome: 'approve' });
    await server.app.db
      .delete(applicationForms)
      .where(and(eq(applicationForms.applicationId, child.id), eq(applicationForms.form, 'parent-workplace')));
    expect((await complete(server, child)).json()).toEqual({ message: httpMessages.stepsIncomplete });
  });

  it('waits for the current-address document when the identity check asked for one', async () => {
    const who = await verifiedApplication(server, { outcome: 'supplement' });
    const early = await complete(server, who);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ message: httpMessages.supplementMissing });
    await uploadOk(server, who, 'CURRENT_ADDRESS_DOCUMENT');
    expect((await complete(server, who)).statusCode).toBe(200);
  });

  it('completes a child application (documents, PIN, the parent’s check)', async () => {
    const who = await verifiedApplication(server, { bankCode: '0177', applicationType: 'CHILD' });
    const response = await complete(server, who);
    expect(response.statusCode).toBe(200);
    expect(response.json<Completed>().applicationNumber).toMatch(/^0177-\d{6}-\d{6}$/);
  });

  it('closes the application: no PIN, identity check or document after completion', async () => {
    const who = await verifiedApplication(server, { applicationType: 'CHILD' });
    expect((await complete(server, who)).statusCode).toBe(200);
    expect((await startEkyc(server, who)).statusCode).toBe(409);
    expect((await upload(server, who, 'INDIVIDUAL_NUMBER_CARD')).json()).toEqual({ message: httpMessages.applicationCompleted });
    expect((await setPin(server, await confirmedApplication(server))).statusCode).toBe(200);
  });
});

describe('formatApplicationNumber', () => {
  it('writes bank, Japan day as yyMMdd and a 6-digit sequence', () => {
    expect(formatApplicationNumber('0177', '2025-06-15', 42)).toBe('0177-250615-000042');
    expect(formatApplicationNumber('0181', '2030-12-31', 999_999)).toBe('0181-301231-999999');
  });
});
