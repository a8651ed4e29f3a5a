import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import { applicationForms, applications } from '../../src/server/db/schema.js';
import { storeDocument } from '../../src/server/forms/documents.js';
import { NEW_FORM, NEW_FORM_TEXTS, TRIAL_FORM, TRIAL_TEXTS, writeFoldersWithNewStep } from '../model/new-step.js';
import { complete, confirmedApplication, headersOf, setPin, signedIn, startEkyc, decide, type Signed } from './application-fixtures.js';
import { backends, startTestServer, type TestServer } from './helpers.js';

/**
 * The generic form-step engine over HTTP, on a server started on copies of flows/ and
 * schemas/ to which a product owner added one step with a new form (tests/model/new-step.ts):
 * the form is accepted at its declared path with no code of its own, refused with every
 * failed field at once in the schema's own words, stored as a document, shown by GET
 * /api/applications, waited for by completion and locked after the PIN.
 */
describe.each(backends)('a form step added by JSON alone ($name)', (backend) => {
  let server: TestServer;
  const folder = mkdtempSync(join(tmpdir(), 'kouza-new-step-'));
  const PATH = '/api/applications/contact-preference';
  const valid = { contactTime: 'AFTERNOON', contactNote: '平日の夕方以降は避けてください' };

  beforeAll(async () => {
    const { flowsDir, schemasDir } = writeFoldersWithNewStep(folder);
    server = await startTestServer(backend, { config: { flowsDir, schemasDir } });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const post = (who: Signed, payload: unknown) =>
    server.app.inject({ method: 'POST', url: PATH, headers: headersOf(server, who), payload: payload as Record<string, unknown> });
  const postTrial = (who: Signed, payload: Record<string, unknown>) =>
    server.app.inject({ method: 'POST', url: `/api${TRIAL_TEXTS.post}`, headers: headersOf(server, who), payload });
  const stored = async (who: Signed) =>
    (await server.app.inject({ method: 'GET', url: '/api/applications', headers: headersOf(server, who) })).json<{
      application: Record<string, unknown>;
      forms: Record<string, Record<string, unknown>>;
    }>();

  it('answers every failed field at once, in the form’s order, with the form’s own message', async () => {
    const who = await signedIn(server);
    const empty = await post(who, { contactTime: 'EVENING', contactNote: '　 ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({
      message: messages.selectRequired,
      errors: [
        { field: 'contactTime', message: messages.selectRequired },
        { field: 'contactNote', message: NEW_FORM_TEXTS.noteRequired },
      ],
    });
    const long = await post(who, { contactTime: 'MORNING', contactNote: 'あ'.repeat(31) });
    expect(long.json()).toEqual({ message: messages.tooLong(30), errors: [{ field: 'contactNote', message: messages.tooLong(30) }] });
    for (const body of [[], 'text', null, 3]) {
      const response = await server.app.inject({
        method: 'POST',
        url: PATH,
        headers: { ...headersOf(server, who), 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ message: string }>().message).toBe(messages.badRequest);
    }
    expect((await stored(who)).forms[NEW_FORM]).toBeUndefined();
  });

  it('stores the answers trimmed, as a document GET /api/applications shows, and replaces them whole', async () => {
    const who = await signedIn(server);
    const posted = (await post(who, { ...valid, contactNote: ` ${valid.contactNote}　`, unknownField: 'x' })).json();
    const answer = await stored(who);
    expect(posted).toEqual(answer);
    expect(answer.forms[NEW_FORM]).toEqual(valid);
    expect(answer.application).toMatchObject(valid);
    expect((await post(who, { contactTime: 'ANYTIME', contactNote: 'なし' })).statusCode).toBe(200);
    expect((await stored(who)).forms[NEW_FORM]).toEqual({ contactTime: 'ANYTIME', contactNote: 'なし' });
    // A refused post keeps what was stored.
    expect((await post(who, { contactTime: 'ANYTIME' })).statusCode).toBe(400);
    expect((await stored(who)).forms[NEW_FORM]).toEqual({ contactTime: 'ANYTIME', contactNote: 'なし' });
  });

  it('answers what the application holds even when another step was stored in between', async () => {
    const who = await signedIn(server);
    const other = { contactTime: 'ANYTIME', contactNote: 'なし' };
    // Sent at once, without the page's revision: one is stored after the other had read the application.
    const answers = (await Promise.all([post(who, valid), post(who, other), post(who, valid), post(who, other)])).map((response) => {
      expect(response.statusCode).toBe(200);
      return { revision: Number(response.headers['x-application-revision']), answer: response.json<{ forms: Record<string, unknown> }>() };
    });
    const newest = answers.reduce((a, b) => (b.revision > a.revision ? b : a));
    expect(newest.answer).toEqual(await stored(who));
    expect(new Set(answers.map(({ revision }) => revision)).size).toBe(4);
  });

  it('never lets a document hide a column in GET /api/applications', async () => {
    const who = await signedIn(server);
    const [row] = await server.app.db.select({ mailAddress: applications.mailAddress }).from(applications).where(eq(applications.id, who.id));
    await storeDocument(server.app.db, who.id, NEW_FORM, { ...valid, mailAddress: 'other@example.com' }, server.clock.now());
    expect((await stored(who)).application.mailAddress).toBe(row?.mailAddress);
  });

  it('is not a path of a flow that does not ask the form (the child flow)', async () => {
    const child = await signedIn(server, '0177', 'CHILD');
    const response = await post(child, valid);
    expect(response.statusCode).toBe(404);
    expect(response.json<{ message: string }>().message).toMatch(/[ぁ-んァ-ン一-龥]/);
  });

  it('is waited for by completion, and locked once the PIN is set', async () => {
    const who = await confirmedApplication(server, '0177', 'GENERAL', [NEW_FORM, TRIAL_FORM]);
    expect((await setPin(server, who)).statusCode).toBe(200);
    expect((await post(who, valid)).statusCode).toBe(409);
    const started = await startEkyc(server, who);
    await decide(server, who, started.json<{ url: string }>().url, 'approve');
    expect((await complete(server, who)).statusCode).toBe(409);

    const answered = await signedIn(server);
    expect((await post(answered, valid)).statusCode).toBe(200);
    const ready = await confirmedApplication(server, '0177', 'GENERAL', [NEW_FORM, TRIAL_FORM]);
    expect((await post(ready, valid)).statusCode).toBe(200);
    expect((await postTrial(ready, { tradeKind: 'SAVINGS', declaration: true })).statusCode).toBe(200);
    expect((await setPin(server, ready)).statusCode).toBe(200);
    await decide(server, ready, (await startEkyc(server, ready)).json<{ url: string }>().url, 'approve');
    expect((await complete(server, ready)).statusCode).toBe(200);
    expect((await stored(ready)).forms[NEW_FORM]).toEqual(valid);
  });

  it('asks the detail of the conditions example for two of three options only: required while asked, never stored when not', async () => {
    const who = await signedIn(server);
    const refused = await postTrial(who, { tradeKind: 'BUSINESS', declaration: true });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ message: TRIAL_TEXTS.detailRequired, errors: [{ field: 'tradeDetail', message: TRIAL_TEXTS.detailRequired }] });
    expect((await postTrial(who, { tradeKind: 'SALARY', tradeDetail: 'あ'.repeat(31), declaration: true })).json()).toEqual({
      message: messages.tooLong(30),
      errors: [{ field: 'tradeDetail', message: messages.tooLong(30) }],
    });
    // Nothing chosen: the option and the declaration; the detail is not asked yet.
    expect((await postTrial(who, {})).json()).toEqual({
      message: messages.selectRequired,
      errors: [
        { field: 'tradeKind', message: messages.selectRequired },
        { field: 'declaration', message: TRIAL_TEXTS.declarationRequired },
      ],
    });
    // The third option passes without it, and a detail sent anyway is neither checked nor stored.
    expect((await postTrial(who, { tradeKind: 'SAVINGS', tradeDetail: 'あ'.repeat(31), declaration: true })).statusCode).toBe(200);
    expect((await stored(who)).forms[TRIAL_FORM]).toEqual({ tradeKind: 'SAVINGS', declaration: true });
    expect((await postTrial(who, { tradeKind: 'SALARY', tradeDetail: '株式会社テスト', declaration: true })).statusCode).toBe(200);
    expect((await stored(who)).forms[TRIAL_FORM]).toEqual({ tradeKind: 'SALARY', tradeDetail: '株式会社テスト', declaration: true });
  });

  it('hands the bank each chosen value with its label', async () => {
    const who = await signedIn(server);
    expect((await postTrial(who, { tradeKind: 'BUSINESS', tradeDetail: '青果の卸売', declaration: true })).statusCode).toBe(200);
    const [row] = await server.app.db.select({ labels: applicationForms.labels }).from(applicationForms).where(and(eq(applicationForms.applicationId, who.id), eq(applicationForms.form, TRIAL_FORM)));
    expect(row?.labels).toEqual({ tradeKind: TRIAL_TEXTS.kinds[1].title, declaration: TRIAL_TEXTS.declarationTitle });
  });
});
