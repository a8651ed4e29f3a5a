import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import { applicant, backends, hostOf, signIn, startTestServer, type TestServer, birthdayYearsAgo } from './helpers.js';
import type { AddressCandidate } from '../../src/domain/steps.js';
import { validBodies } from './application-fixtures.js';

/**
 * The general steps /personal to /seal-less against the real app (spec sections 5 and 7):
 * the lookups the forms use, the master data, and the four POSTs with every Japanese message
 * they can answer, on PGlite and (with TEST_DATABASE_URL) on PostgreSQL.
 */

type Json = Record<string, unknown>;



describe.each(backends)('general steps /personal to /seal-less ($name)', (backend) => {
  let server: TestServer;
  /** One applicant per bank for the read-only calls and the 400 tables (a 400 changes nothing). */
  const tokens: Record<string, string> = {};
  /** addressCode of the first candidate of a postal code, as the page would pick it. */
  const addressCodes: Record<string, string> = {};

  const get = (url: string, token: string | null, bank = '0177') =>
    server.app.inject({
      method: 'GET',
      url,
      headers: { host: hostOf(server, bank), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
  const post = (url: string, payload: unknown, token: string | null, bank = '0177') =>
    server.app.inject({
      method: 'POST',
      url,
      headers: { host: hostOf(server, bank), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      payload: payload as Json,
    });
  const application = async (token: string, bank = '0177') => {
    const response = await get('/api/applications', token, bank);
    expect(response.statusCode).toBe(200);
    return response.json<{ application: Json; applicationParent: null }>();
  };
  const candidates = async (postalNumber: string, bank = '0177') => {
    const response = await get(`/api/addresses?postalNumber=${postalNumber}`, tokens[bank] ?? null, bank);
    expect(response.statusCode).toBe(200);
    return response.json<{ addressList: AddressCandidate[] }>().addressList;
  };

  /** A valid /personal body for bank 0177: an address in Fukuoka (天神, 8100001). */
  const personal = (overrides: Json = {}): Json => ({ ...validBodies.personal(addressCodes['8100001'] ?? 'missing'), ...overrides });
  const temporary = (overrides: Json = {}): Json =>
    personal({
      noMatchingAddress: true,
      postalNumber: null,
      addressCode: null,
      subAddress: null,
      kanaSubAddress: null,
      tempAddressPrefecture: '福岡県',
      tempAddress: '福岡市中央区天神9-9-9',
      kanaTempAddress: 'ﾌｸｵｶｼﾁｭｳｵｳｸﾃﾝｼﾞﾝ9-9-9',
      ...overrides,
    });
  /** A valid /workplace body for bank 0177: 会社員 (id 1) at a typed workplace. */
  const workplace = (overrides: Json = {}): Json => ({ ...validBodies.workplace(), ...overrides });

  beforeAll(async () => {
    server = await startTestServer(backend);
    for (const bank of ['0177', '0587', '0181']) tokens[bank] = await signIn(server, applicant(bank));
    for (const code of ['8100001', '8600046']) addressCodes[code] = (await candidates(code))[0]?.addressCode ?? 'missing';
  });
  afterAll(async () => {
    await server?.close();
  });

  const token = (bank = '0177') => {
    const value = tokens[bank];
    if (!value) throw new Error(`no token for ${bank}`);
    return value;
  };

  describe('authentication', () => {
    const calls: [string, string, unknown][] = [
      ['GET', '/api/addresses?postalNumber=8600046', undefined],
      ['GET', '/api/furigana?kanji=山田', undefined],
      ['GET', '/api/occupations', undefined],
      ['GET', '/api/workplace?code=F10001', undefined],
      ['GET', '/api/invitation?code=FBK001', undefined],
      ['GET', '/api/branch', undefined],
      ['GET', '/api/applications', undefined],
      ['POST', '/api/applications/personal', {}],
      ['POST', '/api/applications/workplace', { occupationId: 1 }],
      ['POST', '/api/applications/branch', { branchCode: '001' }],
      ['POST', '/api/applications/seal-less', { sealLess: true }],
    ];
    it.each(calls)('%s %s answers 401 without a token or with an unknown one', async (method, url, payload) => {
      for (const authorization of [undefined, `Bearer ${'x'.repeat(43)}`]) {
        const response = await server.app.inject({
          method: method as 'GET' | 'POST',
          url,
          headers: { host: hostOf(server, '0177'), ...(authorization ? { authorization } : {}) },
          ...(payload === undefined ? {} : { payload: payload as Json }),
        });
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ message: messages.unauthorized });
      }
    });
  });

  describe('GET /api/addresses', () => {
    it('gives both candidates of 8600046 (熊本市中央区横手 and 熊本市西区横手) with kana', async () => {
      const list = await candidates('8600046');
      expect(list).toHaveLength(2);
      expect(list.map((candidate) => candidate.addressFull)).toEqual(['熊本県熊本市中央区横手', '熊本県熊本市西区横手']);
      expect(list[0]).toEqual({
        id: 1,
        addressCode: expect.stringMatching(/^8600046-[0-9a-f]{8}$/),
        addressFull: '熊本県熊本市中央区横手',
        prefecture: '熊本県',
        municipality: '熊本市中央区',
        section: '横手',
        chome: null,
        kanaPrefecture: 'ｸﾏﾓﾄｹﾝ',
        kanaMunicipality: 'ｸﾏﾓﾄｼﾁｭｳｵｳｸ',
        kanaSection: 'ﾖｺﾃ',
        kanaChome: null,
      });
      expect(list[1]).toMatchObject({ id: 2, municipality: '熊本市西区', kanaMunicipality: 'ｸﾏﾓﾄｼﾆｼｸ' });
      expect(list[0]?.addressCode).not.toBe(list[1]?.addressCode);
    });

    it('gives both municipalities of 8160000 (春日市 and 大野城市), whose town Japan Post leaves empty', async () => {
      const list = await candidates('8160000');
      expect(list.map(({ addressFull, section, kanaMunicipality }) => ({ addressFull, section, kanaMunicipality }))).toEqual([
        { addressFull: '福岡県春日市', section: null, kanaMunicipality: 'ｶｽｶﾞｼ' },
        { addressFull: '福岡県大野城市', section: null, kanaMunicipality: 'ｵｵﾉｼﾞｮｳｼ' },
      ]);
    });

    it('gives the same codes on every call and to every bank', async () => {
      expect(await candidates('8600046', '0587')).toEqual(await candidates('8600046', '0177'));
    });

    it('takes the chome of a large office code, never the office name or its 番地', async () => {
      const [tenjin] = await candidates('8108502');
      expect(tenjin).toMatchObject({ addressFull: '福岡県福岡市中央区天神二丁目', section: '天神', chome: '二丁目', kanaChome: '2ﾁｮｳﾒ' });
      const [bank] = await candidates('8608501');
      expect(bank).toMatchObject({ addressFull: '熊本県熊本市中央区山崎町', chome: null });
    });

    it('answers an empty list for a code nobody uses', async () => {
      expect(await candidates('0000000')).toEqual([]);
      expect(await candidates('8609999')).toEqual([]);
    });

    it('accepts the code with a hyphen or in full-width digits', async () => {
      for (const typed of ['860-0046', '８６０００４６']) {
        const response = await get(`/api/addresses?postalNumber=${encodeURIComponent(typed)}`, token());
        expect(response.json<{ addressList: unknown[] }>().addressList).toHaveLength(2);
      }
    });

    it.each([['860004'], ['86000467'], ['86O0046'], ['']])('answers 400 for %j', async (postalNumber) => {
      const response = await get(`/api/addresses?postalNumber=${postalNumber}`, token());
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: messages.searchAddress });
    });

    it('answers 400 without the parameter', async () => {
      expect((await get('/api/addresses', token())).statusCode).toBe(400);
    });
  });

  describe('GET /api/furigana', () => {
    it.each([
      ['山田', 'ﾔﾏﾀﾞ'],
      ['佐藤 花子', 'ｻﾄｳ ﾊﾅｺ'],
      ['佐藤　花子', 'ｻﾄｳ ﾊﾅｺ'],
      ['鈴木一郎', 'ｽｽﾞｷｲﾁﾛｳ'],
      ['渡邉', 'ﾜﾀﾅﾍﾞ'],
      ['やまだ', 'ﾔﾏﾀﾞ'],
      ['きょうこ', 'ｷｮｳｺ'],
      ['ヤマダ', 'ﾔﾏﾀﾞ'],
      ['山田たろう', 'ﾔﾏﾀﾞﾀﾛｳ'],
      ['福岡市中央区', 'ﾌｸｵｶｼﾁｭｳｵｳｸ'],
      ['天神ビル3F', 'ﾃﾝｼﾞﾝﾋﾞﾙ3F'],
    ])('reads %s as %s', async (kanji, kana) => {
      const response = await get(`/api/furigana?kanji=${encodeURIComponent(kanji)}`, token());
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ kana });
    });

    it('keeps a character the dictionary cannot read, so the kana field shows the gap', async () => {
      const response = await get(`/api/furigana?kanji=${encodeURIComponent('髙橋')}`, token());
      expect(response.json<{ kana: string }>().kana).toMatch(/^髙/);
    });

    it('reads 20 characters and refuses 21 or none with 400', async () => {
      expect((await get(`/api/furigana?kanji=${encodeURIComponent('山'.repeat(20))}`, token())).statusCode).toBe(200);
      for (const kanji of ['山'.repeat(21), '', '　']) {
        const response = await get(`/api/furigana?kanji=${encodeURIComponent(kanji)}`, token());
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ message: messages.badRequest });
      }
      expect((await get('/api/furigana', token())).statusCode).toBe(400);
    });
  });

  describe('master data', () => {
    it('lists the occupations by displayNumber with その他 last, every field included', async () => {
      const response = await get('/api/occupations', token());
      expect(response.statusCode).toBe(200);
      const { occupationList } = response.json<{ occupationList: Json[] }>();
      expect(occupationList.map((occupation) => occupation.name)).toEqual([
        '会社員',
        '公務員',
        '会社役員',
        '自営業',
        '派遣・契約社員',
        'パート・アルバイト',
        '学生',
        '主婦・主夫',
        '年金受給者',
        '無職',
        '未就学児',
        '小学生',
        '中学生',
        '高校生',
        'その他',
      ]);
      expect(occupationList[0]).toEqual({
        id: 1,
        name: '会社員',
        displayNumber: 10,
        generalDisplay: true,
        childDisplay: true,
        minDisplayAge: 15,
        maxDisplayAge: null,
        workplaceRequired: true,
      });
      expect(occupationList.find((occupation) => occupation.name === '未就学児')).toMatchObject({
        generalDisplay: false,
        childDisplay: true,
        minDisplayAge: 0,
        maxDisplayAge: 6,
      });
    });

    it.each([
      ['F10001', { id: 1, name: '株式会社博多ロジテック', phoneNumber: '092-123-4567', multipleAccounts: 'PERMITTED' }],
      ['FK200003', { id: 2, name: '医療法人天神中央病院', phoneNumber: '092-711-2345', multipleAccounts: 'NOT_PERMITTED' }],
      ['ｆ１０００１', { id: 1 }],
      [' f10001 ', { id: 1 }],
      ['12345678', { id: 4, multipleAccounts: 'PERMITTED' }],
    ])('finds the workplace %j of the bank', async (code, expected) => {
      const response = await get(`/api/workplace?code=${encodeURIComponent(code)}`, token());
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject(expected);
      expect(Object.keys(response.json()).sort()).toEqual(['id', 'multipleAccounts', 'name', 'phoneNumber']);
    });

    it.each([['ZZZZZZ'], ['F1000'], ['F100011'], ['K58701'], ['']])('answers 404 for the workplace code %j', async (code) => {
      const response = await get(`/api/workplace?code=${encodeURIComponent(code)}`, token());
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: messages.workplaceNotFound });
    });

    it('finds another bank’s workplace only on that bank', async () => {
      expect((await get('/api/workplace?code=K58701', token('0587'), '0587')).statusCode).toBe(200);
    });

    it.each([['FBK001'], ['fbk001'], ['ＴＥＮＪＩＮ']])('accepts the invitation code %j', async (code) => {
      const response = await get(`/api/invitation?code=${encodeURIComponent(code)}`, token());
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ code: code === 'ＴＥＮＪＩＮ' ? 'TENJIN' : 'FBK001' });
    });

    it.each([
      ['ZZZZZZ', 'unknown'],
      ['SPR24A', 'expired'],
      ['OLD001', 'disabled'],
      ['KMB001', 'of another bank'],
      ['FBK00', 'too short'],
    ])('answers 404 for the invitation code %s (%s)', async (code) => {
      const response = await get(`/api/invitation?code=${code}`, token());
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: messages.invitationNotFound });
    });

    it('lists the branches of the bank by code', async () => {
      const response = await get('/api/branch', token('0587'), '0587');
      expect(response.statusCode).toBe(200);
      const { branchList } = response.json<{ branchList: Json[] }>();
      expect(branchList.length).toBeGreaterThanOrEqual(10);
      expect(branchList[0]).toEqual({ code: '001', name: '本店営業部', address: '熊本県熊本市中央区水前寺6-29-20' });
      expect(branchList.every((branch) => String(branch.address).startsWith('熊本県'))).toBe(true);
      const codes = branchList.map((branch) => String(branch.code));
      expect(codes).toEqual([...codes].sort());
    });
  });

  describe('POST /api/applications/personal', () => {
    it('stores the personal data with the registered address from the postal data, not from the body', async () => {
      const own = await signIn(server, applicant('0177'));
      const response = await post(
        '/api/applications/personal',
        personal({
          kanaLastName: 'やまだ',
          kanaFirstName: 'ｷｮｳｺ',
          phoneNumber: '092-123-4567',
          kanaSubAddress: '２ー１３ー１ てんじんびる',
          utilizationPurpose: ['OTHER', 'SALARY', 'LIVING'],
          utilizationPurposeOther: '仕送り',
          // Claims the page never sends and the server ignores.
          addressPrefecture: '東京都',
          addressMunicipality: '千代田区',
          kanaAddressSection: 'ｳｿ',
        }),
        own,
      );
      expect(response.statusCode).toBe(200);
      // What the next page opens with: the same as reading the application again.
      expect(response.json()).toEqual(await application(own));
      const { application: saved, applicationParent } = await application(own);
      expect(applicationParent).toBeNull();
      expect(saved).toMatchObject({
        lastName: '山田',
        firstName: '花子',
        kanaLastName: 'ﾔﾏﾀﾞ',
        kanaFirstName: 'ｷﾖｳｺ',
        gender: 'WOMAN',
        birthday: '1990-01-15',
        eraBirthday: '平成2年1月15日',
        mobilePhoneNumber: '090-1234-5678',
        phoneNumber: '092-123-4567',
        postalNumber: '8100001',
        addressCode: addressCodes['8100001'],
        addressPrefecture: '福岡県',
        addressMunicipality: '福岡市中央区',
        addressSection: '天神',
        addressChome: null,
        kanaAddressPrefecture: 'ﾌｸｵｶｹﾝ',
        kanaAddressMunicipality: 'ﾌｸｵｶｼﾁｭｳｵｳｸ',
        kanaAddressSection: 'ﾃﾝｼﾞﾝ',
        kanaAddressChome: null,
        address: '福岡県福岡市中央区天神',
        kanaAddress: 'ﾌｸｵｶｹﾝﾌｸｵｶｼﾁｭｳｵｳｸﾃﾝｼﾞﾝ',
        subAddress: '2-13-1',
        kanaSubAddress: '2-13-1 ﾃﾝｼﾞﾝﾋﾞﾙ',
        tempAddressPrefecture: null,
        tempAddress: null,
        kanaTempAddress: null,
        // The bank's list order, whatever order the body had.
        utilizationPurpose: 'LIVING,SALARY,OTHER',
        utilizationPurposeOther: '仕送り',
        distanceTransactionReason: null,
      });
    });

    it('stores the second candidate of a code when the applicant picks it', async () => {
      const own = await signIn(server, applicant('0587'));
      const second = (await candidates('8600046', '0587'))[1];
      const response = await post(
        '/api/applications/personal',
        personal({ postalNumber: '860-0046', addressCode: second?.addressCode, utilizationPurpose: ['LIVING'] }),
        own,
        '0587',
      );
      expect(response.statusCode).toBe(200);
      expect((await application(own, '0587')).application).toMatchObject({
        postalNumber: '8600046',
        addressMunicipality: '熊本市西区',
        address: '熊本県熊本市西区横手',
        distanceTransactionReason: null,
      });
    });

    it('switches between the temporary and the registered address, nulling the other', async () => {
      const own = await signIn(server, applicant('0177'));
      expect((await post('/api/applications/personal', personal(), own)).statusCode).toBe(200);
      expect((await post('/api/applications/personal', temporary({ postalNumber: '8100001' }), own)).statusCode).toBe(200);
      expect((await application(own)).application).toMatchObject({
        // The postal code belongs to the search, which a temporary address replaces (x-when).
        postalNumber: null,
        addressCode: null,
        addressPrefecture: null,
        addressMunicipality: null,
        addressSection: null,
        kanaAddressPrefecture: null,
        address: null,
        kanaAddress: null,
        subAddress: null,
        kanaSubAddress: null,
        tempAddressPrefecture: '福岡県',
        tempAddress: '福岡市中央区天神9-9-9',
        // Normalised like every typed kana: small kana become large (ｭ -> ﾕ).
        kanaTempAddress: 'ﾌｸｵｶｼﾁﾕｳｵｳｸﾃﾝｼﾞﾝ9-9-9',
      });
      expect((await post('/api/applications/personal', personal(), own)).statusCode).toBe(200);
      expect((await application(own)).application).toMatchObject({
        addressPrefecture: '福岡県',
        tempAddressPrefecture: null,
        tempAddress: null,
        kanaTempAddress: null,
      });
    });

    it('stores the distance-transaction reason of bank 0177 for an address outside Fukuoka, and only then', async () => {
      const own = await signIn(server, applicant('0177'));
      const kumamoto = { postalNumber: '8600046', addressCode: addressCodes['8600046'] };
      const response = await post('/api/applications/personal', personal({ ...kumamoto, distanceTransactionReason: '福岡市内に勤務のため' }), own);
      expect(response.statusCode).toBe(200);
      expect((await application(own)).application.distanceTransactionReason).toBe('福岡市内に勤務のため');
      await post('/api/applications/personal', personal({ distanceTransactionReason: '不要な理由' }), own);
      expect((await application(own)).application.distanceTransactionReason).toBeNull();
    });

    const under18 = () => birthdayYearsAgo(server.clock.now(), 10);
    const cases: [string, () => Json, string, string, string?][] = [
      ['no last name', () => personal({ lastName: undefined }), 'lastName', messages.required],
      ['an empty last name', () => personal({ lastName: '' }), 'lastName', messages.required],
      ['a 25-character last name', () => personal({ lastName: '山'.repeat(25) }), 'lastName', messages.nameTooLong],
      ['names over 24 together', () => personal({ lastName: '山'.repeat(12), firstName: '花'.repeat(12) }), 'lastName', messages.nameTooLong],
      ['an unusable character', () => personal({ lastName: '山田☆' }), 'lastName', messages.unusableCharacters('☆')],
      ['a half-width space in the first name', () => personal({ firstName: '花 子' }), 'firstName', messages.unusableCharacters(' ')],
      ['no kana last name', () => personal({ kanaLastName: undefined }), 'kanaLastName', messages.required],
      ['a latin kana name', () => personal({ kanaLastName: 'yamada' }), 'kanaLastName', messages.katakana],
      ['a kanji kana name', () => personal({ kanaFirstName: '花子' }), 'kanaFirstName', messages.katakana],
      ['a 49-character kana name', () => personal({ kanaLastName: 'ｱ'.repeat(49) }), 'kanaLastName', messages.kanaNameTooLong],
      ['kana names over 48 together', () => personal({ kanaLastName: 'ｱ'.repeat(24), kanaFirstName: 'ｲ'.repeat(24) }), 'kanaLastName', messages.kanaNameTooLong],
      ['no birthday', () => personal({ birthday: undefined }), 'birthday', messages.birthdayInvalid],
      ['an impossible birthday', () => personal({ birthday: '1990-02-30' }), 'birthday', messages.birthdayInvalid],
      ['a birthday not YYYY-MM-DD', () => personal({ birthday: '1990/01/15' }), 'birthday', messages.birthdayInvalid],
      ['an applicant under 18', () => personal({ birthday: under18() }), 'birthday', messages.generalUnder18],
      ['no gender', () => personal({ gender: undefined }), 'gender', messages.selectRequired],
      ['an unknown gender', () => personal({ gender: 'OTHER' }), 'gender', messages.selectRequired],
      ['no mobile phone', () => personal({ mobilePhoneNumber: undefined }), 'mobilePhoneNumber', messages.mobilePhone],
      ['a landline as mobile', () => personal({ mobilePhoneNumber: '092-123-4567' }), 'mobilePhoneNumber', messages.mobilePhone],
      ['a short home phone', () => personal({ phoneNumber: '092-12-34' }), 'phoneNumber', messages.homePhone],
      ['no postal code', () => personal({ postalNumber: undefined }), 'postalNumber', messages.searchAddress],
      ['a 6-digit postal code', () => personal({ postalNumber: '810000' }), 'postalNumber', messages.searchAddress],
      ['no address code', () => personal({ addressCode: undefined }), 'addressCode', messages.searchAddress],
      ['an address code that is no candidate', () => personal({ addressCode: '8100001-00000000' }), 'addressCode', messages.searchAddress],
      ['the address code of another postal code', () => personal({ addressCode: addressCodes['8600046'] }), 'addressCode', messages.searchAddress],
      ['no sub-address', () => personal({ subAddress: undefined }), 'subAddress', messages.required],
      ['an empty sub-address', () => personal({ subAddress: '' }), 'subAddress', messages.required],
      ['a 21-character sub-address', () => personal({ subAddress: '1'.repeat(21) }), 'subAddress', '20文字以内で入力してください。'],
      ['a roman numeral in the sub-address', () => personal({ subAddress: 'コーポⅢ 101' }), 'subAddress', messages.convertNumerals],
      ['no kana sub-address', () => personal({ kanaSubAddress: undefined }), 'kanaSubAddress', messages.required],
      ['kanji in the kana sub-address', () => personal({ kanaSubAddress: '天神' }), 'kanaSubAddress', messages.katakana],
      ['a 41-character kana sub-address', () => personal({ kanaSubAddress: 'ｱ'.repeat(41) }), 'kanaSubAddress', '40文字以内で入力してください。'],
      ['no temporary prefecture', () => temporary({ tempAddressPrefecture: undefined }), 'tempAddressPrefecture', messages.selectRequired],
      ['an unknown temporary prefecture', () => temporary({ tempAddressPrefecture: '福丘県' }), 'tempAddressPrefecture', messages.selectRequired],
      ['no temporary address', () => temporary({ tempAddress: '' }), 'tempAddress', messages.required],
      ['a 61-character temporary address', () => temporary({ tempAddress: 'あ'.repeat(61) }), 'tempAddress', '60文字以内で入力してください。'],
      ['a roman numeral in the temporary address', () => temporary({ tempAddress: '天神Ⅱ' }), 'tempAddress', messages.convertNumerals],
      ['no temporary kana', () => temporary({ kanaTempAddress: undefined }), 'kanaTempAddress', messages.required],
      ['kanji in the temporary kana', () => temporary({ kanaTempAddress: '天神' }), 'kanaTempAddress', messages.katakana],
      ['no purpose', () => personal({ utilizationPurpose: [] }), 'utilizationPurpose', messages.selectRequired],
      ['OTHER without its text', () => personal({ utilizationPurpose: ['OTHER'] }), 'utilizationPurposeOther', messages.purposeOtherRequired],
      ['OTHER with blank text', () => personal({ utilizationPurpose: ['OTHER'], utilizationPurposeOther: '　' }), 'utilizationPurposeOther', messages.purposeOtherRequired],
      ['a 25-character OTHER text', () => personal({ utilizationPurpose: ['OTHER'], utilizationPurposeOther: 'あ'.repeat(25) }), 'utilizationPurposeOther', messages.purposeOtherTooLong],
      ['a purpose not in the bank’s list', () => personal({ utilizationPurpose: ['LOTTERY'] }), 'utilizationPurpose', messages.badRequest],
      ['0587 and the 0177-only purpose', () => personal({ utilizationPurpose: ['PUBLIC_SPORTS'], postalNumber: '8600046', addressCode: addressCodes['8600046'] }), 'utilizationPurpose', messages.badRequest, '0587'],
      ['0177, Kumamoto and no distance reason', () => personal({ postalNumber: '8600046', addressCode: addressCodes['8600046'] }), 'distanceTransactionReason', messages.required],
      ['0177, a temporary Saga address and no distance reason', () => temporary({ tempAddressPrefecture: '佐賀県' }), 'distanceTransactionReason', messages.required],
      ['a 51-character distance reason', () => personal({ postalNumber: '8600046', addressCode: addressCodes['8600046'], distanceTransactionReason: 'あ'.repeat(51) }), 'distanceTransactionReason', messages.distanceReasonTooLong],
    ];
    it.each(cases)('answers 400 for %s', async (_label, body, field, message, bank = '0177') => {
      const response = await post('/api/applications/personal', body(), token(bank), bank);
      expect(response.statusCode).toBe(400);
      const answer = response.json<{ message: string; errors: { field: string; message: string }[] }>();
      expect(answer.errors).toContainEqual({ field, message });
      expect(answer.message).toBe(message);
    });

    it('answers 400 with the first field’s message first when several are wrong', async () => {
      const response = await post('/api/applications/personal', personal({ utilizationPurpose: ['LOTTERY'], lastName: '山田☆', addressCode: 'x' }), token());
      const answer = response.json<{ message: string; errors: { field: string }[] }>();
      expect(answer.message).toBe(messages.unusableCharacters('☆'));
      expect(answer.errors.map((error) => error.field)).toEqual(['lastName', 'addressCode', 'utilizationPurpose']);
    });

    it('answers 400 for a body that is no object', async () => {
      for (const payload of [[], 'text', null]) {
        const response = await server.app.inject({
          method: 'POST',
          url: '/api/applications/personal',
          headers: { host: hostOf(server, '0177'), authorization: `Bearer ${token()}`, 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
        });
        expect(response.statusCode).toBe(400);
      }
    });
  });

  describe('POST /api/applications/workplace', () => {
    it('stores a typed workplace, its name normalised as on blur', async () => {
      const own = await signIn(server, applicant('0177'));
      const response = await post(
        '/api/applications/workplace',
        workplace({ workplaceName: ' ㈱ﾃｽﾄ商事 ', invitationCode: 'fbk001' }),
        own,
      );
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(await application(own));
      expect((await application(own)).application).toMatchObject({
        occupationId: 1,
        occupationName: '会社員',
        occupationOther: null,
        workplaceId: null,
        workplaceCode: null,
        workplaceName: '株式会社テスト商事',
        workplacePhoneNumber: '092-123-4567',
        invitationCode: 'FBK001',
        existedAccountBranchCode: null,
        existedAccountNumber: null,
      });
    });

    it('stores a workplace of the master data with its own name and phone, and a zero-padded existing account', async () => {
      const own = await signIn(server, applicant('0177'));
      const response = await post(
        '/api/applications/workplace',
        workplace({
          workplaceId: 1,
          workplaceName: '別の名前',
          workplacePhoneNumber: '03-1111-2222',
          existedAccountBranchCode: '12',
          existedAccountNumber: '３４５６',
        }),
        own,
      );
      expect(response.statusCode).toBe(200);
      expect((await application(own)).application).toMatchObject({
        workplaceId: 1,
        workplaceCode: 'F10001',
        workplaceName: '株式会社博多ロジテック',
        workplacePhoneNumber: '092-123-4567',
        existedAccountBranchCode: '012',
        existedAccountNumber: '0003456',
      });
    });

    it('drops the existing account of a workplace that does not permit multiple accounts', async () => {
      const own = await signIn(server, applicant('0177'));
      const body = workplace({ workplaceId: 2, existedAccountBranchCode: '012', existedAccountNumber: '0003456' });
      expect((await post('/api/applications/workplace', body, own)).statusCode).toBe(200);
      expect((await application(own)).application).toMatchObject({
        workplaceId: 2,
        workplaceName: '医療法人天神中央病院',
        existedAccountBranchCode: null,
        existedAccountNumber: null,
      });
    });

    it('keeps the その他 text only for その他, and needs no workplace for a student', async () => {
      const own = await signIn(server, applicant('0177'));
      const other = workplace({ occupationId: 99, occupationOther: 'フリーランス', workplaceName: null, workplacePhoneNumber: null });
      expect((await post('/api/applications/workplace', other, own)).statusCode).toBe(200);
      expect((await application(own)).application).toMatchObject({ occupationName: 'その他', occupationOther: 'フリーランス', workplaceName: null });
      const student = workplace({ occupationId: 7, occupationOther: '大学院生', workplaceName: null, workplacePhoneNumber: '' });
      expect((await post('/api/applications/workplace', student, own)).statusCode).toBe(200);
      expect((await application(own)).application).toMatchObject({
        occupationName: '学生',
        occupationOther: null,
        workplaceName: null,
        workplacePhoneNumber: null,
      });
    });

    const cases: [string, Json, string, string, string?][] = [
      ['no occupation', workplace({ occupationId: undefined }), 'occupationId', messages.selectRequired],
      ['an occupation id that is no number', workplace({ occupationId: '1' }), 'occupationId', messages.selectRequired],
      ['an unknown occupation', workplace({ occupationId: 999 }), 'occupationId', messages.selectRequired],
      ['a child-only occupation', workplace({ occupationId: 11 }), 'occupationId', messages.selectRequired],
      ['その他 without its text', workplace({ occupationId: 99, occupationOther: null }), 'occupationOther', messages.required],
      ['a 26-character その他 text', workplace({ occupationId: 99, occupationOther: 'あ'.repeat(26) }), 'occupationOther', messages.occupationOtherTooLong],
      ['an employee without workplace name', workplace({ workplaceName: null }), 'workplaceName', messages.required],
      ['an employee without workplace phone', workplace({ workplacePhoneNumber: '--' }), 'workplacePhoneNumber', messages.required],
      ['a short workplace phone', workplace({ workplacePhoneNumber: '092-12' }), 'workplacePhoneNumber', messages.workplacePhone],
      ['a partial phone for a student', workplace({ occupationId: 7, workplaceName: null, workplacePhoneNumber: '092--' }), 'workplacePhoneNumber', messages.workplacePhone],
      ['a forbidden symbol in the name', workplace({ workplaceName: 'テスト＊商事％' }), 'workplaceName', messages.workplaceForbiddenCharacters('＊％')],
      ['a roman numeral in the name', workplace({ workplaceName: 'Ⅲ商事' }), 'workplaceName', messages.convertNumerals],
      ['a 26-character name', workplace({ workplaceName: 'あ'.repeat(26) }), 'workplaceName', messages.workplaceNameTooLong],
      ['an unknown workplace id', workplace({ workplaceId: 999 }), 'workplaceId', messages.workplaceNotFound],
      ['another bank’s workplace id', workplace({ workplaceId: 6 }), 'workplaceId', messages.workplaceNotFound, '0587'],
      ['an unknown invitation code', workplace({ invitationCode: 'ZZZZZZ' }), 'invitationCode', messages.invitationNotFound],
      ['an expired invitation code', workplace({ invitationCode: 'SPR24A' }), 'invitationCode', messages.invitationNotFound],
      ['a disabled invitation code', workplace({ invitationCode: 'OLD001' }), 'invitationCode', messages.invitationNotFound],
      ['a 5-character invitation code', workplace({ invitationCode: 'FBK00' }), 'invitationCode', messages.invitationNotFound],
      ['a branch code without account number', workplace({ workplaceId: 1, existedAccountBranchCode: '012' }), 'existedAccountNumber', messages.existingAccount],
      ['a branch code with letters', workplace({ workplaceId: 1, existedAccountBranchCode: 'ab', existedAccountNumber: '1234567' }), 'existedAccountBranchCode', messages.existingAccount],
      ['an 8-digit account number', workplace({ workplaceId: 1, existedAccountBranchCode: '012', existedAccountNumber: '12345678' }), 'existedAccountNumber', messages.existingAccount],
    ];
    it.each(cases)('answers 400 for %s', async (_label, body, field, message, bank = '0177') => {
      const response = await post('/api/applications/workplace', body, token(bank), bank);
      expect(response.statusCode).toBe(400);
      const answer = response.json<{ message: string; errors: { field: string; message: string }[] }>();
      expect(answer.errors).toContainEqual({ field, message });
      expect(answer.message).toBe(message);
    });
  });

  /**
   * The invitation code goes with POST /api/applications/workplace in both flows: /workplace
   * sends it with the applicant's workplace, /child/personal with the child's occupation (spec
   * section 3, "Workplace post body"). The same checks and storage for both.
   */
  describe.each(['GENERAL', 'CHILD'] as const)('the invitation code of POST /api/applications/workplace (%s)', (applicationType) => {
    /** The body each flow's page sends: a typed workplace, or the child's 小学生 with no workplace. */
    const body = (invitationCode: unknown): Json =>
      applicationType === 'GENERAL'
        ? workplace({ invitationCode })
        : workplace({ occupationId: 12, workplaceName: null, workplacePhoneNumber: null, invitationCode });

    it('stores a valid code as the page applies it (half width, upper case), replaces it, removes it with null', async () => {
      const own = await signIn(server, applicant('0177', applicationType));
      expect((await post('/api/applications/workplace', body('ｆｂｋ００１'), own)).statusCode).toBe(200);
      expect((await application(own)).application).toMatchObject({ applicationType, invitationCode: 'FBK001' });
      expect((await post('/api/applications/workplace', body('TENJIN'), own)).statusCode).toBe(200);
      expect((await application(own)).application).toMatchObject({ invitationCode: 'TENJIN' });
      expect((await post('/api/applications/workplace', body(null), own)).statusCode).toBe(200);
      expect((await application(own)).application).toMatchObject({ invitationCode: null });
    });

    it.each<[string, unknown, string]>([
      ['unknown', 'NOPE99', messages.invitationNotFound],
      ['disabled', 'OLD001', messages.invitationNotFound],
      ['past its last day', 'SPR24A', messages.invitationNotFound],
      ['of another bank', 'KMB001', messages.invitationNotFound],
      ['not 6 characters', 'FBK0011', messages.invitationNotFound],
      // No page sends one: the schema's general message.
      ['not a string', 42, messages.badRequest],
    ])('answers 400 for a code %s and keeps what was saved', async (_label, invitationCode, message) => {
      const own = await signIn(server, applicant('0177', applicationType));
      expect((await post('/api/applications/workplace', body('FBK001'), own)).statusCode).toBe(200);
      const before = await application(own);
      const response = await post('/api/applications/workplace', body(invitationCode), own);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message, errors: [{ field: 'invitationCode', message }] });
      expect(await application(own)).toEqual(before);
    });
  });

  describe('POST /api/applications/branch and /seal-less', () => {
    it('stores the branch code and name, and the seal choice', async () => {
      const own = await signIn(server, applicant('0181'));
      expect((await post('/api/applications/branch', { branchCode: '201' }, own, '0181')).statusCode).toBe(200);
      expect((await post('/api/applications/seal-less', { sealLess: true }, own, '0181')).statusCode).toBe(200);
      expect((await application(own, '0181')).application).toMatchObject({ branchCode: '201', branchName: '佐世保営業部', sealLess: true });
      expect((await post('/api/applications/seal-less', { sealLess: false }, own, '0181')).json()).toEqual(await application(own, '0181'));
      expect((await application(own, '0181')).application.sealLess).toBe(false);
    });

    it.each<[string, unknown]>([
      ['no branch', {}],
      ['a 2-digit code', { branchCode: '01' }],
      ['a number', { branchCode: 1 }],
      ['a branch of another bank only', { branchCode: '103' }],
    ])('answers 400 for %s', async (_label, body) => {
      const response = await post('/api/applications/branch', body, token());
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: messages.selectRequired, errors: [{ field: 'branchCode', message: messages.selectRequired }] });
    });

    it.each<[string, unknown]>([
      ['no choice', {}],
      ['a string', { sealLess: 'true' }],
      ['null', { sealLess: null }],
    ])('answers 400 to seal-less for %s', async (_label, body) => {
      const response = await post('/api/applications/seal-less', body, token());
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: messages.selectRequired, errors: [{ field: 'sealLess', message: messages.selectRequired }] });
    });
  });

  describe('GET /api/applications after the steps', () => {
    it('gives every stored field, and a refused POST of any step changes none of them', async () => {
      const own = await signIn(server, applicant('0177'));
      expect((await post('/api/applications/personal', personal(), own)).statusCode).toBe(200);
      expect((await post('/api/applications/workplace', workplace({ workplaceId: 1, existedAccountBranchCode: '1', existedAccountNumber: '1' }), own)).statusCode).toBe(200);
      expect((await post('/api/applications/branch', { branchCode: '101' }, own)).statusCode).toBe(200);
      expect((await post('/api/applications/seal-less', { sealLess: true }, own)).statusCode).toBe(200);
      const before = await application(own);
      expect(Object.keys(before.application).sort()).toEqual(
        [
          'bankCode',
          'applicationType',
          'mailAddress',
          'lastName',
          'firstName',
          'kanaLastName',
          'kanaFirstName',
          'gender',
          'birthday',
          'eraBirthday',
          'mobilePhoneNumber',
          'phoneNumber',
          'noMatchingAddress',
          'postalNumber',
          'addressCode',
          'addressPrefecture',
          'addressMunicipality',
          'addressSection',
          'addressChome',
          'kanaAddressPrefecture',
          'kanaAddressMunicipality',
          'kanaAddressSection',
          'kanaAddressChome',
          'address',
          'kanaAddress',
          'subAddress',
          'kanaSubAddress',
          'tempAddressPrefecture',
          'tempAddress',
          'kanaTempAddress',
          'utilizationPurpose',
          'utilizationPurposeOther',
          'distanceTransactionReason',
          'occupationId',
          'occupationName',
          'occupationOther',
          'workplaceId',
          'workplaceCode',
          'workplaceName',
          'workplacePhoneNumber',
          'multipleAccountsPermitted',
          'invitationCode',
          'existedAccountBranchCode',
          'existedAccountNumber',
          'branchCode',
          'branchName',
          'sealLess',
          'applicationNumber',
          'applicationCompletedAt',
        ].sort(),
      );
      expect(before.application).toMatchObject({
        applicationType: 'GENERAL',
        bankCode: '0177',
        existedAccountBranchCode: '001',
        existedAccountNumber: '0000001',
        multipleAccountsPermitted: true,
        branchCode: '101',
        branchName: '博多駅前支店',
        sealLess: true,
        applicationNumber: null,
        applicationCompletedAt: null,
      });

      const refused: [string, Json][] = [
        ['/api/applications/personal', personal({ lastName: '別人', birthday: '1990-02-30' })],
        ['/api/applications/personal', temporary({ kanaTempAddress: '漢字' })],
        ['/api/applications/personal', personal({ lastName: '別人', addressCode: addressCodes['8600046'] })],
        ['/api/applications/workplace', workplace({ occupationId: 99, workplaceId: null })],
        ['/api/applications/workplace', workplace({ workplaceId: 2, invitationCode: 'ZZZZZZ' })],
        ['/api/applications/branch', { branchCode: '999' }],
        ['/api/applications/seal-less', { sealLess: 'no' }],
      ];
      const answers: LightMyRequestResponse[] = [];
      for (const [url, body] of refused) answers.push(await post(url, body, own));
      expect(answers.map((answer) => answer.statusCode)).toEqual(refused.map(() => 400));
      expect(await application(own)).toEqual(before);
    });
  });
});
