import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/index.js';
import { applications, documents as documentRows, ekycSessions, ekycSimulatorSessions, verificationRecords } from '../../src/server/db/schema.js';
import { signedCallback } from '../../src/server/ekyc/adapter.js';
import { runOperatorCommand } from '../../src/server/operator/commands.js';
import { runCli } from '../../src/cli/operator.js';
import { applicationDeliveryOf } from '../../src/server/delivery/payload.js';
import { correctRecord, purgeRecords, purgeRecordsPastRetention, recordsFromJson, recordsJsonOf, recordsOf, yearsBefore } from '../../src/server/records/read.js';
import { DAY_MS, purgeExpired } from '../../src/server/resume/applications.js';
import { complete, ekycStatus, savedParent, savedPersonal, verifiedApplication, type Signed } from './application-fixtures.js';
import { backends, testServerFor } from './helpers.js';

const SECRET = 'test-callback-secret-records-0123456789';
const YEAR_MS = 365.25 * DAY_MS;

/** A raw statement, as an operator with SQL access would send it (both drivers answer { rows }). */
async function rawSql(db: Database, statement: ReturnType<typeof sql>): Promise<Record<string, unknown>[]> {
  return ((await db.execute(statement)) as unknown as { rows: Record<string, unknown>[] }).rows;
}

/** The database's own refusal, under drizzle's "Failed query" wrapper. */
async function refused(promise: Promise<unknown>, reason: RegExp): Promise<void> {
  const error: unknown = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  const cause = (error as { cause?: Error } | undefined)?.cause ?? error;
  expect(cause).toBeInstanceOf(Error);
  expect((cause as Error).message).toMatch(reason);
}

describe.each(backends)('verification records ($name)', (backend) => {
  const server = testServerFor(backend, { config: { ekycCallbackSecret: SECRET } });

  async function sessionOf(who: Signed) {
    const [session] = await server.app.db.select().from(ekycSessions).where(eq(ekycSessions.applicationId, who.id));
    if (!session) throw new Error('no session');
    return session;
  }

  /** The provider's approval once more, signed: a replay or a duplicate delivery. */
  async function approveAgain(providerSessionId: string) {
    const { headers, rawBody } = signedCallback(SECRET, { sessionId: providerSessionId, state: 'approved', supplement: false }, server.clock.now());
    return server.app.inject({ method: 'POST', url: '/api/ekyc/callback', headers, payload: rawBody });
  }

  it('writes one record for the applicant when the check is approved, and none for a duplicate callback or a poll', async () => {
    const who = await verifiedApplication(server);
    const session = await sessionOf(who);
    expect((await approveAgain(session.providerSessionId)).statusCode).toBe(200);
    expect(await ekycStatus(server, who)).toBe(4);
    const records = await recordsOf(server.app.db, who.id);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      bankCode: '0177',
      applicationType: 'GENERAL',
      ekycSessionId: session.id,
      subjectRole: 'APPLICANT',
      method: 'IMAGE_SELFIE_PHOTO_ID',
      provider: 'simulator',
      providerReference: session.providerSessionId,
      evidence: { state: 'approved', supplement: false },
      corrects: null,
    });
    expect(records[0]?.subject).toMatchObject({ lastName: savedPersonal.lastName, birthday: savedPersonal.birthday, address: savedPersonal.address });
    expect(records[0]?.verifiedAt).toEqual(session.decidedAt);
  });

  it('writes one record when two approvals of the same session arrive at once', async () => {
    const who = await verifiedApplication(server, { outcome: 'pending' });
    const { providerSessionId } = await sessionOf(who);
    const answers = await Promise.all([approveAgain(providerSessionId), approveAgain(providerSessionId), approveAgain(providerSessionId)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    expect(await recordsOf(server.app.db, who.id)).toHaveLength(1);
  });

  it('writes nothing for a rejected or failed check', async () => {
    for (const outcome of ['reject', 'error']) {
      const who = await verifiedApplication(server, { outcome });
      expect(await recordsOf(server.app.db, who.id)).toEqual([]);
    }
  });

  it('records the parent and the child of a child application, the child with the images uploaded', async () => {
    const who = await verifiedApplication(server, { applicationType: 'CHILD' });
    const records = await recordsOf(server.app.db, who.id);
    expect(records.map((record) => [record.subjectRole, record.method])).toEqual([
      ['REPRESENTATIVE', 'IMAGE_SELFIE_PHOTO_ID'],
      ['CHILD', 'CHILD_DOCUMENT_IMAGES'],
    ]);
    expect(records[0]?.subject).toMatchObject({ lastName: savedParent.lastName, firstName: savedParent.firstName, relationship: 'FATHER' });
    expect(records[1]?.subject).toMatchObject({ firstName: savedPersonal.firstName, birthday: savedPersonal.birthday });
    const documents = (records[1]?.evidence as { documents: { type: string; sha256: string }[] }).documents;
    expect(documents.map((document) => document.type)).toEqual(['INDIVIDUAL_NUMBER_CARD', 'MATERNITY_HANDBOOK']);
    for (const document of documents) expect(document.sha256).toMatch(/^[0-9a-f]{64}$/);
    // Each as it is stored, its time as JSON writes a date.
    const uploaded = await server.app.db
      .select({ id: documentRows.id, type: documentRows.type, contentType: documentRows.contentType, byteSize: documentRows.byteSize, uploadedAt: documentRows.createdAt })
      .from(documentRows)
      .where(eq(documentRows.applicationId, who.id))
      .orderBy(documentRows.type);
    expect(documents).toEqual(uploaded.map((row) => ({ ...row, uploadedAt: row.uploadedAt.toISOString(), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown })));
    // Completed, its hand-off carries the images as stored, in base64, and the same records.
    expect((await complete(server, who)).statusCode).toBe(200);
    const delivery = await applicationDeliveryOf(server.app.db, who.id);
    const stored = await server.app.db.select().from(documentRows).where(eq(documentRows.applicationId, who.id)).orderBy(documentRows.type);
    expect(delivery.documents).toEqual(stored.map((row) => ({ type: row.type, contentType: row.contentType, width: row.width, height: row.height, content: row.content?.toString('base64') })));
    expect(delivery.verificationRecords).toEqual(records);
  });

  it('leaves the session undecided when its record cannot be written: the approval and the record are one statement', async () => {
    const who = await verifiedApplication(server, { outcome: 'pending' });
    const session = await sessionOf(who);
    // A record for this session and role already (as no code writes it): the approval's own record is refused.
    await server.app.db.insert(verificationRecords).values({
      bankCode: '0177',
      applicationId: who.id,
      applicationType: 'GENERAL',
      ekycSessionId: session.id,
      subjectRole: 'APPLICANT',
      subject: {},
      method: 'IMAGE_SELFIE_PHOTO_ID',
      provider: 'simulator',
      providerReference: session.providerSessionId,
      evidence: {},
      verifiedAt: server.clock.now(),
      recordedAt: server.clock.now(),
    });
    // Refused as the request boundary answers a duplicate (boundary/errors.ts), and nothing of it kept.
    expect((await approveAgain(session.providerSessionId)).statusCode).not.toBe(200);
    expect((await sessionOf(who)).status).toBe(session.status);
    expect(await recordsOf(server.app.db, who.id)).toHaveLength(1);
  });

  it('is append-only in the database: UPDATE, DELETE and TRUNCATE are refused', async () => {
    const who = await verifiedApplication(server);
    const [record] = await recordsOf(server.app.db, who.id);
    const id = record?.id ?? 0;
    await refused(rawSql(server.app.db, sql`UPDATE verification_records SET method = 'X' WHERE id = ${id}`), /append-only/);
    await refused(rawSql(server.app.db, sql`DELETE FROM verification_records WHERE id = ${id}`), /append-only/);
    await refused(rawSql(server.app.db, sql`TRUNCATE verification_records`), /append-only/);
    // Setting the purge's cutoff by hand lets nothing younger than 7 years go either.
    await refused(
      server.app.db.transaction(async (tx) => {
        await tx.execute(sql`SELECT set_config('kouza.records_purge_before', ${new Date().toISOString()}, true)`);
        await tx.execute(sql`DELETE FROM verification_records WHERE id = ${id}`);
      }),
      /append-only/,
    );
    expect(await recordsOf(server.app.db, who.id)).toEqual([record]);
  });

  it('corrects a record with a new record naming it; the corrected one stays as it was', async () => {
    const who = await verifiedApplication(server);
    const [original] = await recordsOf(server.app.db, who.id);
    if (!original) throw new Error('no record');
    const subject = { ...original.subject, firstName: '華子' };
    const id = await correctRecord(server.app.db, original.id, { subject }, 'first name misspelt by the applicant', server.clock.now());
    const records = await recordsOf(server.app.db, who.id);
    expect(records).toHaveLength(2);
    expect(records[0]).toEqual(original);
    expect(records[1]).toMatchObject({ id, corrects: original.id, correctionReason: 'first name misspelt by the applicant', subject, method: original.method });
    // A record is corrected once; a further correction corrects the correction.
    await expect(correctRecord(server.app.db, original.id, { subject }, 'again', server.clock.now())).rejects.toThrow();
    expect(await correctRecord(server.app.db, id, { subject: original.subject }, 'reverted', server.clock.now())).toBeGreaterThan(id);
    // As the hand-off reads them, in json within its one statement (delivery/payload.ts): the same records.
    const [row] = await server.app.db.select({ records: recordsJsonOf(sql`${who.id}::uuid`) }).from(applications).where(eq(applications.id, who.id));
    expect(recordsFromJson(row?.records ?? [])).toEqual(await recordsOf(server.app.db, who.id));
  });

  it('keeps the records when the unfinished application is purged after its retention', async () => {
    const who = await verifiedApplication(server);
    const bank = server.banks.get('0177');
    if (!bank) throw new Error('no bank 0177');
    const before = await recordsOf(server.app.db, who.id);
    expect(before).toHaveLength(1);
    server.clock.advance(31 * DAY_MS);
    const providerSession = (await sessionOf(who)).providerSessionId;
    expect(await purgeExpired(server.app.db, bank, server.clock.now())).toBeGreaterThanOrEqual(1);
    expect(await server.app.db.select().from(applications).where(eq(applications.id, who.id))).toEqual([]);
    // The provider side's row of its check goes too (it has no foreign key to the application).
    expect(await server.app.db.select().from(ekycSimulatorSessions).where(eq(ekycSimulatorSessions.sessionId, providerSession))).toEqual([]);
    expect(await recordsOf(server.app.db, who.id)).toEqual(before);
  });

  it('purges records past retention through the database function, never one younger than 7 years', async () => {
    const bank = '0587';
    server.clock.advance(-8 * YEAR_MS);
    const old = await verifiedApplication(server, { bankCode: bank });
    const [oldRecord] = await recordsOf(server.app.db, old.id);
    if (!oldRecord) throw new Error('no record');
    await correctRecord(server.app.db, oldRecord.id, { subject: oldRecord.subject }, 'checked again', server.clock.now());
    server.clock.reset();
    server.clock.advance(-6.5 * YEAR_MS);
    const younger = await verifiedApplication(server, { bankCode: bank });
    server.clock.reset();
    const recent = await verifiedApplication(server, { bankCode: bank });
    // A cutoff of 6 years ago is taken as 7: the record of 6.5 years stays.
    expect(await purgeRecords(server.app.db, bank, yearsBefore(new Date(), 6))).toBe(2);
    expect(await recordsOf(server.app.db, old.id)).toEqual([]);
    expect(await recordsOf(server.app.db, younger.id)).toHaveLength(1);
    expect(await recordsOf(server.app.db, recent.id)).toHaveLength(1);
    expect(await purgeRecords(server.app.db, bank, yearsBefore(new Date(), 7))).toBe(0);
  });

  it("keeps a bank's records for its verificationRecordRetentionYears, 7 by default", async () => {
    const bank = server.banks.get('0177');
    if (!bank) throw new Error('no bank 0177');
    server.clock.advance(-9 * YEAR_MS);
    const nineYears = await verifiedApplication(server, { bankCode: '0177' });
    server.clock.reset();
    expect(await purgeRecordsPastRetention(server.app.db, [{ ...bank, verificationRecordRetentionYears: 10 }], server.clock.now())).toBe(0);
    expect(await recordsOf(server.app.db, nineYears.id)).toHaveLength(1);
    expect(await purgeRecordsPastRetention(server.app.db, [{ ...bank, verificationRecordRetentionYears: undefined }], server.clock.now())).toBeGreaterThanOrEqual(1);
    expect(await recordsOf(server.app.db, nineYears.id)).toEqual([]);
  });

  it("exports a bank's records of a period as JSON lines: in-process (the socket's path) and with DATABASE_URL", async () => {
    server.clock.current = new Date('2026-06-15T03:00:00Z'); // 12:00 in Japan
    const inPeriod = await verifiedApplication(server, { bankCode: '0181', applicationType: 'CHILD' });
    await verifiedApplication(server, { bankCode: '0177' });
    server.clock.current = new Date('2026-06-16T15:30:00Z'); // 00:30 on the 17th in Japan: after --to
    await verifiedApplication(server, { bankCode: '0181' });
    const argv = ['records', 'export', '--bank', '0181', '--from', '2026-06-15', '--to', '2026-06-16'];
    const expected = (await recordsOf(server.app.db, inPeriod.id)).map((record) => JSON.parse(JSON.stringify(record)) as unknown);

    const inProcess = await runOperatorCommand(argv, { db: server.app.db, isBank: (code) => Boolean(server.banks.get(code)), servedFlows: () => server.app.flowVersions.current() });
    expect(inProcess.exitCode).toBe(0);
    expect(inProcess.lines.map((line) => JSON.parse(line) as unknown)).toEqual(expected);
    expect(expected).toHaveLength(2);

    if (server.config.databaseUrl) {
      const out: string[] = [];
      const exitCode = await runCli(argv, { env: { DATABASE_URL: server.config.databaseUrl }, out: (line) => out.push(line), err: () => undefined });
      expect(exitCode).toBe(0);
      expect(out.map((line) => JSON.parse(line) as unknown)).toEqual(expected);
    }
    const unknownBank = await runOperatorCommand(['records', 'export', '--bank', '9999', '--from', '2026-06-15', '--to', '2026-06-16'], {
      db: server.app.db,
      isBank: (code) => Boolean(server.banks.get(code)),
      servedFlows: () => server.app.flowVersions.current(),
    });
    expect(unknownBank.exitCode).toBe(2);
  });
});
