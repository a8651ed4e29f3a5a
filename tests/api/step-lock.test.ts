import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import { confirmedApplication, headersOf, setPin, type Signed } from './application-fixtures.js';
import { backends, startTestServer, type TestServer, birthdayYearsAgo } from './helpers.js';

/**
 * Once the PIN is stored, every POST that edits a step answers 409 with the words of the PIN
 * screen's warning and changes nothing (step-lock.ts), on PGlite and (with TEST_DATABASE_URL)
 * on PostgreSQL. Each body is first accepted before the PIN, so a 409 after it is the lock's.
 */

type Json = Record<string, unknown>;


describe.each(backends)('steps locked once the PIN is set ($name)', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => {
    await server?.close();
  });

  const post = (who: Signed, url: string, payload: Json) =>
    server.app.inject({ method: 'POST', url: `/api${url}`, headers: headersOf(server, who), payload });
  const read = async (who: Signed) => {
    const response = await server.app.inject({ method: 'GET', url: '/api/applications', headers: headersOf(server, who) });
    expect(response.statusCode).toBe(200);
    return response.json<{ application: Json; applicationParent: Json | null }>();
  };
  /** The first candidate of 〒810-0001 as the page would pick it. */
  const addressCode = async (who: Signed): Promise<string> => {
    const response = await server.app.inject({ method: 'GET', url: '/api/addresses?postalNumber=8100001', headers: headersOf(server, who) });
    const code = response.json<{ addressList: { addressCode: string }[] }>().addressList[0]?.addressCode;
    if (!code) throw new Error('no address candidate for 8100001');
    return code;
  };

  /** Valid bodies of every step-editing POST of a flow, in the flow's order. */
  const stepBodies = async (who: Signed): Promise<[string, Json][]> => {
    const child = who.applicationType === 'CHILD';
    const personal: Json = {
      lastName: '山田',
      firstName: child ? '一郎' : '花子',
      kanaLastName: 'ﾔﾏﾀﾞ',
      kanaFirstName: child ? 'ｲﾁﾛｳ' : 'ﾊﾅｺ',
      birthday: child ? birthdayYearsAgo(server.clock.now(), 10) : '1991-03-15',
      gender: child ? 'MAN' : 'WOMAN',
      mobilePhoneNumber: '090-1111-3333',
      phoneNumber: null,
      noMatchingAddress: false,
      postalNumber: '8100001',
      addressCode: await addressCode(who),
      subAddress: '3-3-3',
      kanaSubAddress: '3-3-3',
      utilizationPurpose: ['LIVING'],
      utilizationPurposeOther: null,
      distanceTransactionReason: null,
    };
    const workplace: Json = child
      ? { occupationId: 12, occupationOther: null, workplaceName: null, workplacePhoneNumber: null, workplaceId: null, invitationCode: null }
      : { occupationId: 1, occupationOther: null, workplaceName: '株式会社ロック', workplacePhoneNumber: '092-777-8888', workplaceId: null, invitationCode: null };
    const steps: [string, Json][] = [
      ['/applications/personal', personal],
      ['/applications/workplace', workplace],
    ];
    if (child) {
      steps.push(
        [
          '/applications/personal/parent',
          {
            bankCode: who.bankCode,
            lastName: '山田',
            firstName: '次郎',
            kanaLastName: 'ﾔﾏﾀﾞ',
            kanaFirstName: 'ｼﾞﾛｳ',
            birthday: '1980-10-10',
            relationship: 'FATHER',
            mobilePhoneNumber: '080-3333-1111',
            phoneNumber: null,
            proxyApplicationReason: 'MINOR',
          },
        ],
        ['/applications/workplace/parent', { occupationId: 99, occupationOther: '漁師', workplaceName: null, workplacePhoneNumber: null }],
      );
    }
    // The seal choice is a page of the general flow only (the child's account has no seal).
    steps.push(['/applications/branch', { branchCode: '001' }]);
    if (who.applicationType === 'GENERAL') steps.push(['/applications/seal-less', { sealLess: false }]);
    return steps;
  };

  /** Per flow: an application whose every step was saved through its POST, then the PIN set. */
  const locked: Partial<Record<Signed['applicationType'], { who: Signed; steps: Map<string, Json>; before: Json }>> = {};
  beforeAll(async () => {
    for (const applicationType of ['GENERAL', 'CHILD'] as const) {
      const who = await confirmedApplication(server, '0177', applicationType);
      const steps = await stepBodies(who);
      for (const [url, body] of steps) {
        // Accepted before the PIN: a 409 below is the lock's, not the body's.
        const response = await post(who, url, body);
        if (response.statusCode !== 200) throw new Error(`${applicationType} ${url} answered ${response.statusCode} ${response.body}`);
      }
      const pin = await setPin(server, who);
      if (pin.statusCode !== 200) throw new Error(`PIN answered ${pin.statusCode} ${pin.body}`);
      locked[applicationType] = { who, steps: new Map(steps), before: await read(who) };
    }
  });

  it.each([
    ['GENERAL', '/applications/personal'],
    ['GENERAL', '/applications/workplace'],
    ['GENERAL', '/applications/branch'],
    ['GENERAL', '/applications/seal-less'],
    ['CHILD', '/applications/personal'],
    ['CHILD', '/applications/workplace'],
    ['CHILD', '/applications/personal/parent'],
    ['CHILD', '/applications/workplace/parent'],
    ['CHILD', '/applications/branch'],
  ] as const)('%s: POST %s answers 409 after the PIN and changes nothing', async (applicationType, url) => {
    const state = locked[applicationType];
    const body = state?.steps.get(url);
    if (!state || !body) throw new Error(`no ${applicationType} body for ${url}`);
    // The same body again, one that changes something, and one the schema would refuse.
    for (const payload of [body, { ...body, lastName: '佐藤', sealLess: true, branchCode: '002', occupationId: 7 }, {}]) {
      const response = await post(state.who, url, payload);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ message: messages.stepsLockedAfterPin });
    }
    expect(await read(state.who)).toEqual(state.before);
  });

  it('uses the words of the PIN warning', () => {
    expect(messages.stepsLockedAfterPin).toBe('暗証番号の設定後は、入力内容の修正ができません。');
    expect(messages.pinWarning.startsWith(messages.stepsLockedAfterPin)).toBe(true);
  });

  it('still answers 401 before the lock without a session', async () => {
    const who = await confirmedApplication(server);
    expect((await setPin(server, who)).statusCode).toBe(200);
    const response = await server.app.inject({ method: 'POST', url: '/api/applications/branch', headers: { host: headersOf(server, who).host }, payload: { branchCode: '001' } });
    expect(response.statusCode).toBe(401);
  });
});
