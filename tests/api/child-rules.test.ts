import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import { headersOf, savedSteps, signedIn, type Signed } from './application-fixtures.js';
import { backends, startTestServer, type TestServer } from './helpers.js';

/**
 * The rules only a child application has, checked again by the server whatever the page did
 * (spec sections 5 and 6): the child's birthday on POST /api/applications/personal (born, and
 * under 18) and the child's occupation on POST /api/applications/workplace (child display and
 * the age bounds of banks/0177/occupations.json). On PGlite and (with TEST_DATABASE_URL) on
 * PostgreSQL.
 *
 * The server's clock is fixed at 00:30 on 2 March 2025 in Tokyo, when it is still 1 March in
 * UTC: the dates below are that day's, and a server that took the UTC day would be one day
 * off and fail the boundary cases.
 */

type Json = Record<string, unknown>;

const NOW = new Date('2025-03-01T15:30:00Z');
const TODAY = '2025-03-02'; // in Tokyo
const TOMORROW = '2025-03-03';
const EIGHTEEN_TODAY = '2007-03-02';
const EIGHTEEN_TOMORROW = '2007-03-03'; // 17, one day short of 18
const SIXTEEN_TODAY = '2009-03-02';
const TEN_YEARS_OLD = '2015-01-20';

interface Occupation {
  id: number;
  name: string;
  childDisplay: boolean;
  minDisplayAge: number | null;
  maxDisplayAge: number | null;
  workplaceRequired: boolean;
}

interface FieldErrors {
  message: string;
  errors: { field: string; message: string }[];
}

describe.each(backends)('child rules re-checked by the server ($name)', (backend) => {
  let server: TestServer;
  let addressCode: string;
  /** Bank 0177's occupations as GET /api/occupations gives them, by name. */
  const occupations = new Map<string, Occupation>();

  const post = (url: string, payload: Json, who: Signed) =>
    server.app.inject({ method: 'POST', url, headers: headersOf(server, who), payload });
  const read = async (who: Signed) => {
    const response = await server.app.inject({ method: 'GET', url: '/api/applications', headers: headersOf(server, who) });
    expect(response.statusCode).toBe(200);
    return response.json<{ application: Json; applicationParent: Json | null }>();
  };
  const child = () => signedIn(server, '0177', 'CHILD');

  /** A valid /child/personal body: the fixtures' person at 〒810-0001, home prefecture of 0177. */
  const personal = (birthday: string, overrides: Json = {}): Json => ({
    lastName: savedSteps.lastName,
    firstName: savedSteps.firstName,
    kanaLastName: savedSteps.kanaLastName,
    kanaFirstName: savedSteps.kanaFirstName,
    birthday,
    gender: savedSteps.gender,
    mobilePhoneNumber: savedSteps.mobilePhoneNumber,
    phoneNumber: null,
    noMatchingAddress: false,
    postalNumber: savedSteps.postalNumber,
    addressCode,
    subAddress: savedSteps.subAddress,
    kanaSubAddress: savedSteps.kanaSubAddress,
    utilizationPurpose: savedSteps.utilizationPurpose,
    utilizationPurposeOther: null,
    distanceTransactionReason: null,
    ...overrides,
  });

  const occupation = (name: string): Occupation => {
    const found = occupations.get(name);
    if (!found) throw new Error(`bank 0177 has no occupation ${name}`);
    return found;
  };
  /** The child's workplace post as /child/personal sends it, with a workplace when the occupation needs one. */
  const workplace = (name: string): Json => {
    const { id, workplaceRequired } = occupation(name);
    return {
      occupationId: id,
      occupationOther: name === 'その他' ? '家業の手伝い' : null,
      workplaceName: workplaceRequired ? '株式会社テスト' : null,
      workplacePhoneNumber: workplaceRequired ? '092-123-4567' : null,
      workplaceId: null,
      invitationCode: null,
    };
  };

  /** A child application whose personal step is saved through its route, with this birthday. */
  const childBornOn = async (birthday: string): Promise<Signed> => {
    const who = await child();
    const saved = await post('/api/applications/personal', personal(birthday), who);
    if (saved.statusCode !== 200) throw new Error(`personal answered ${saved.statusCode} ${saved.body}`);
    return who;
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    server.clock.current = new Date(NOW);
    const who = await child();
    const addresses = await server.app.inject({ method: 'GET', url: '/api/addresses?postalNumber=8100001', headers: headersOf(server, who) });
    addressCode = addresses.json<{ addressList: { addressCode: string }[] }>().addressList[0]?.addressCode ?? 'missing';
    const list = await server.app.inject({ method: 'GET', url: '/api/occupations', headers: headersOf(server, who) });
    for (const entry of list.json<{ occupationList: Occupation[] }>().occupationList) occupations.set(entry.name, entry);
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('the child’s birthday on POST /api/applications/personal', () => {
    it.each([
      ['born tomorrow', TOMORROW],
      ['18 today', EIGHTEEN_TODAY],
    ])('400 with the child-age message when %s, and nothing of the body is stored', async (_label, birthday) => {
      const who = await childBornOn(TEN_YEARS_OLD);
      const before = await read(who);

      const response = await post('/api/applications/personal', personal(birthday, { firstName: '次郎', kanaFirstName: 'ｼﾞﾛｳ' }), who);
      expect(response.statusCode).toBe(400);
      expect(response.json<FieldErrors>()).toEqual({ message: messages.childAge, errors: [{ field: 'birthday', message: messages.childAge }] });
      expect(await read(who)).toEqual(before);
    });

    it.each([
      ['one day short of 18', EIGHTEEN_TOMORROW],
      ['born today', TODAY],
    ])('accepts a child %s and stores the birthday', async (_label, birthday) => {
      const who = await child();
      const response = await post('/api/applications/personal', personal(birthday), who);
      expect(response.statusCode).toBe(200);
      expect((await read(who)).application).toMatchObject({ applicationType: 'CHILD', firstName: savedSteps.firstName, birthday });
    });

    it('the rule is the child’s: a general applicant who turns 18 today is accepted', async () => {
      const general = await signedIn(server, '0177', 'GENERAL');
      const response = await post('/api/applications/personal', personal(EIGHTEEN_TODAY), general);
      expect(response.statusCode).toBe(200);
      expect((await read(general)).application).toMatchObject({ applicationType: 'GENERAL', birthday: EIGHTEEN_TODAY });
    });
  });

  describe('the child’s occupation on POST /api/applications/workplace', () => {
    /** The occupation is refused at its field with the spec's message, and nothing changes. */
    async function expectOccupationRefused(name: string, who: Parameters<typeof read>[0], before: Awaited<ReturnType<typeof read>>) {
      const response = await post('/api/applications/workplace', workplace(name), who);
      expect(response.statusCode).toBe(400);
      expect(response.json<FieldErrors>()).toEqual({
        message: messages.selectRequired,
        errors: [{ field: 'occupationId', message: messages.selectRequired }],
      });
      expect(await read(who)).toEqual(before);
    }

    // A child who turns 16 today in Tokyo (still 15 by the UTC day).
    it.each([
      ['小学生', 'for ages 6 to 12'],
      ['中学生', 'for ages 12 to 15'],
      ['未就学児', 'for ages 0 to 6'],
      ['公務員', 'not offered to children'],
    ])('400 for a 16-year-old choosing %s (%s), and the saved occupation stays', async (name) => {
      const who = await childBornOn(SIXTEEN_TODAY);
      expect((await post('/api/applications/workplace', workplace('高校生'), who)).statusCode).toBe(200);
      const before = await read(who);

      await expectOccupationRefused(name, who, before);
      expect(before.application).toMatchObject({ occupationName: '高校生' });
    });

    it.each([['高校生'], ['会社員'], ['その他']])('accepts %s for a 16-year-old and stores it', async (name) => {
      const who = await childBornOn(SIXTEEN_TODAY);
      const response = await post('/api/applications/workplace', workplace(name), who);
      expect(response.statusCode).toBe(200);
      expect((await read(who)).application).toMatchObject({ occupationId: occupation(name).id, occupationName: name });
    });

    it.each([['公務員'], ['会社役員'], ['年金受給者']])(
      '400 for %s, whose childDisplay is false, even before a birthday gives an age to check',
      async (name) => {
        expect(occupation(name).childDisplay).toBe(false);
        const who = await child();
        const before = await read(who);

        await expectOccupationRefused(name, who, before);
        // The same post with an occupation children may choose goes through.
        expect((await post('/api/applications/workplace', workplace('会社員'), who)).statusCode).toBe(200);
      },
    );
  });
});
