import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import { httpMessages } from '../../src/server/http-messages.js';
import { confirmedApplication, headersOf, saveSteps, signedIn, validBodies, type Signed } from './application-fixtures.js';
import { backends, hostOf, startTestServer, type TestServer, birthdayYearsAgo } from './helpers.js';

/**
 * The child flow's parent step (spec sections 3, 5 and 7): POST /api/applications/personal/parent,
 * POST /api/applications/workplace/parent (the generic form-step handler: schemas/parent and
 * parent-workplace, stored as the applicationParent record) and the applicationParent of GET /api/applications,
 * on PGlite and (with TEST_DATABASE_URL) on PostgreSQL. The child's personal data is saved
 * with the fixture (its own route has tests of its own): 山田 / ﾔﾏﾀﾞ, 10 years old.
 */

type Json = Record<string, unknown>;


describe.each(backends)('child flow parent step ($name)', (backend) => {
  let server: TestServer;

  const post = (url: string, payload: Json, who: Signed | null) =>
    server.app.inject({
      method: 'POST',
      url,
      headers: who ? headersOf(server, who) : { host: hostOf(server, '0177') },
      payload,
    });
  const postParent = (payload: Json, who: Signed | null) => post('/api/applications/personal/parent', payload, who);
  const postWorkplace = (payload: Json, who: Signed | null) => post('/api/applications/workplace/parent', payload, who);
  const read = async (who: Signed) => {
    const response = await server.app.inject({ method: 'GET', url: '/api/applications', headers: headersOf(server, who) });
    expect(response.statusCode).toBe(200);
    return response.json<{ application: Json; applicationParent: Json | null }>();
  };

  /** A valid parent body for bank 0177: the child's father, 40. */
  const parent = (overrides: Json = {}): Json => ({ ...validBodies.parent(birthdayYearsAgo(server.clock.now(), 40)), ...overrides });
  const workplace = (overrides: Json = {}): Json => ({ ...validBodies.parentWorkplace(), ...overrides });

  /** A CHILD application whose child personal data is saved. */
  const childApplication = async (): Promise<Signed> => {
    const who = await signedIn(server, '0177', 'CHILD');
    await saveSteps(server, who, { birthday: birthdayYearsAgo(server.clock.now(), 10), eraBirthday: null });
    return who;
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('saves the parent, then the workplace, and GET /api/applications reads them back', async () => {
    const who = await childApplication();
    expect((await read(who)).applicationParent).toBeNull();

    // Full-width and hiragana kana are normalised as the page does; an empty home phone is null.
    const saved = await postParent(parent({ kanaLastName: 'やまだ', kanaFirstName: 'タロウ', phoneNumber: '--' }), who);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual(await read(who));
    const birthday = birthdayYearsAgo(server.clock.now(), 40);
    expect((await read(who)).applicationParent).toEqual({
      lastName: '山田',
      firstName: '太郎',
      kanaLastName: 'ﾔﾏﾀﾞ',
      kanaFirstName: 'ﾀﾛｳ',
      birthday,
      relationship: 'FATHER',
      mobilePhoneNumber: '080-1111-2222',
      phoneNumber: null,
      proxyApplicationReason: 'MINOR',
      occupationId: null,
      occupationName: null,
      occupationOther: null,
      workplaceName: null,
      workplacePhoneNumber: null,
    });

    const placed = await postWorkplace(workplace({ workplaceName: '㈱テスト' }), who);
    expect(placed.statusCode).toBe(200);
    const { application, applicationParent } = await read(who);
    expect(applicationParent).toMatchObject({
      occupationId: 1,
      occupationName: '会社員',
      occupationOther: null,
      workplaceName: '株式会社テスト',
      workplacePhoneNumber: '092-123-4567',
    });
    // The child's own data is untouched: the parent's answers make up applicationParent only.
    expect(application).toMatchObject({ applicationType: 'CHILD', lastName: '山田', kanaLastName: 'ﾔﾏﾀﾞ', firstName: '花子', mobilePhoneNumber: '090-1357-2468' });
    expect(application).not.toHaveProperty('relationship');
    expect(application).not.toHaveProperty('proxyApplicationReason');

    // Saving the parent again keeps the workplace; 'その他' keeps its text.
    expect((await postParent(parent({ relationship: 'MOTHER', firstName: '花子', kanaFirstName: 'ﾊﾅｺ', phoneNumber: '092-711-3690' }), who)).statusCode).toBe(200);
    expect((await read(who)).applicationParent).toMatchObject({ relationship: 'MOTHER', firstName: '花子', phoneNumber: '092-711-3690', occupationName: '会社員' });
    expect((await postWorkplace(workplace({ occupationId: 99, occupationOther: '漁師', workplaceName: null, workplacePhoneNumber: null }), who)).statusCode).toBe(200);
    expect((await read(who)).applicationParent).toMatchObject({ occupationId: 99, occupationName: 'その他', occupationOther: '漁師', workplaceName: null });
  });

  it.each([
    ['surname differs from the child', { lastName: '佐藤' }, 'lastName', messages.parentSurname],
    ['kana surname differs from the child', { kanaLastName: 'ｻﾄｳ' }, 'kanaLastName', messages.parentKanaSurname],
    ['relationship missing', { relationship: undefined }, 'relationship', messages.selectRequired],
    ['relationship not FATHER or MOTHER', { relationship: 'UNCLE' }, 'relationship', messages.selectRequired],
    ['bad mobile', { mobilePhoneNumber: '03-1234-5678' }, 'mobilePhoneNumber', messages.mobilePhone],
    ['bad home phone', { phoneNumber: '092-711' }, 'phoneNumber', messages.homePhone],
    ['kana not katakana', { kanaFirstName: 'Taro' }, 'kanaFirstName', messages.katakana],
    ['proxy reason missing', { proxyApplicationReason: undefined }, 'proxyApplicationReason', messages.selectRequired],
    ['birthday not a date', { birthday: '1980-02-30' }, 'birthday', messages.birthdayInvalid],
  ])('400 when the %s', async (_label, overrides, field, message) => {
    const who = await childApplication();
    const response = await postParent(parent(overrides), who);
    expect(response.statusCode).toBe(400);
    const body = response.json<{ message: string; errors: { field: string; message: string }[] }>();
    expect(body.message).toBe(message);
    expect(body.errors).toContainEqual({ field, message });
    expect((await read(who)).applicationParent).toBeNull();
  });

  it('400 when the parent is 17, accepted at 18', async () => {
    const who = await childApplication();
    const young = await postParent(parent({ birthday: birthdayYearsAgo(server.clock.now(), 17) }), who);
    expect(young.statusCode).toBe(400);
    expect(young.json()).toEqual({ message: messages.parentUnder18, errors: [{ field: 'birthday', message: messages.parentUnder18 }] });
    expect((await postParent(parent({ birthday: birthdayYearsAgo(server.clock.now(), 18) }), who)).statusCode).toBe(200);
  });

  it("400 when the body's bank is not the application's", async () => {
    const who = await childApplication();
    const response = await postParent(parent({ bankCode: '0587' }), who);
    expect(response.statusCode).toBe(400);
    expect(response.json<{ errors: unknown[] }>().errors).toEqual([{ field: 'bankCode', message: messages.badRequest }]);
  });

  it('400 on the workplace: an occupation not offered to adults, a missing workplace, an untyped その他', async () => {
    const who = await childApplication();
    expect((await postParent(parent(), who)).statusCode).toBe(200);
    const cases: [Json, string, string][] = [
      [{ occupationId: 11 }, 'occupationId', messages.selectRequired], // 未就学児: child display only
      [{ occupationId: 12345 }, 'occupationId', messages.selectRequired],
      [{ occupationId: undefined }, 'occupationId', messages.selectRequired],
      [{ workplaceName: null }, 'workplaceName', messages.required],
      [{ workplacePhoneNumber: '092-12' }, 'workplacePhoneNumber', messages.workplacePhone],
      [{ occupationId: 99, occupationOther: null, workplaceName: null, workplacePhoneNumber: null }, 'occupationOther', messages.required],
    ];
    for (const [overrides, field, message] of cases) {
      const response = await postWorkplace(workplace(overrides), who);
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      const body = response.json<{ message: string; errors: { field: string; message: string }[] }>();
      expect(body.message, JSON.stringify(overrides)).toBe(message);
      expect(body.errors).toContainEqual({ field, message });
    }
    expect((await read(who)).applicationParent).toMatchObject({ occupationId: null, workplaceName: null });
  });

  it("takes the spec's four fields only: an invitationCode is ignored like any other property, the child's code stays", async () => {
    const who = await childApplication();
    // The child's code, sent by /child/personal with the child's workplace data.
    const childStep = await post(
      '/api/applications/workplace',
      { occupationId: 12, occupationOther: null, workplaceName: null, workplacePhoneNumber: null, workplaceId: null, invitationCode: 'FBK001' },
      who,
    );
    expect(childStep.statusCode).toBe(200);
    expect((await postParent(parent(), who)).statusCode).toBe(200);

    for (const invitationCode of ['TENJIN', 'NOPE99', null]) {
      const response = await postWorkplace(workplace({ invitationCode, unknownField: 'x' }), who);
      expect(response.statusCode, String(invitationCode)).toBe(200);
      const { application, applicationParent } = await read(who);
      expect(application).toMatchObject({ occupationName: '小学生', invitationCode: 'FBK001' });
      expect(applicationParent).toMatchObject({ occupationName: '会社員', workplaceName: 'テスト商事株式会社' });
    }
  });

  it('a refused request changes nothing already saved', async () => {
    const who = await childApplication();
    expect((await postParent(parent(), who)).statusCode).toBe(200);
    expect((await postWorkplace(workplace(), who)).statusCode).toBe(200);
    const before = await read(who);

    // Valid except one field each: nothing of the rest is written.
    expect((await postParent(parent({ firstName: '次郎', lastName: '佐藤' }), who)).statusCode).toBe(400);
    expect((await postParent(parent({ firstName: '次郎', birthday: birthdayYearsAgo(server.clock.now(), 17) }), who)).statusCode).toBe(400);
    expect((await postParent(parent({ firstName: '次郎', relationship: null }), who)).statusCode).toBe(400);
    expect((await postWorkplace(workplace({ occupationId: 2, workplaceName: '＜会社＞' }), who)).statusCode).toBe(400);
    expect(await read(who)).toEqual(before);
  });

  it('401 without a token', async () => {
    const who = await childApplication();
    for (const response of [await postParent(parent(), null), await postWorkplace(workplace(), null)]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: messages.unauthorized });
    }
    expect((await read(who)).applicationParent).toBeNull();
  });

  it('404 for a general application (the paths are not in its flow), whatever the body', async () => {
    const general = await confirmedApplication(server, '0177', 'GENERAL');
    for (const response of [await postParent(parent(), general), await postWorkplace(workplace(), general), await postParent({}, general)]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: httpMessages.notFound });
    }
    expect((await read(general)).applicationParent).toBeNull();
  });

  it('409 before the child data and before the parent, named by the step to register first, whatever the body', async () => {
    const bare = await signedIn(server, '0177', 'CHILD');
    for (const body of [parent(), {}]) {
      const response = await postParent(body, bare);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ message: 'お子さまの情報を先に登録してください。' });
    }

    const child = await childApplication();
    const early = await postWorkplace(workplace(), child);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ message: '親権者さまの情報を先に登録してください。' });
    expect((await read(child)).applicationParent).toBeNull();
  });
});
