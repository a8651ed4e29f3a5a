import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import FormStep from '../../src/client/screens/FormStep';
import { useStepPost } from '../../src/client/screens/stepActions';
import type { ClientSettings } from '../../src/domain/bank/types';
import { messages } from '../../src/domain/messages';
import { bank0587Settings, inRouter, json, screenProps, settingsFor, expectStepLockAlert, requestOf } from './fixtures';

/**
 * A small stand-in for the server's side of /personal: the stored application, the postal
 * data of a few codes (as the real lookup answers them), furigana of a few names, and the
 * POST that stores the step or answers 400 as the server does.
 */
const ADDRESSES: Record<string, unknown[]> = {
  '8100001': [
    {
      id: 1,
      addressCode: '8100001-d6bfc86a',
      addressFull: '福岡県福岡市中央区天神',
      prefecture: '福岡県',
      municipality: '福岡市中央区',
      section: '天神',
      chome: null,
      kanaPrefecture: 'ﾌｸｵｶｹﾝ',
      kanaMunicipality: 'ﾌｸｵｶｼﾁｭｳｵｳｸ',
      kanaSection: 'ﾃﾝｼﾞﾝ',
      kanaChome: null,
    },
  ],
  '8600046': [
    {
      id: 1,
      addressCode: '8600046-0850ef11',
      addressFull: '熊本県熊本市中央区横手',
      prefecture: '熊本県',
      municipality: '熊本市中央区',
      section: '横手',
      chome: null,
      kanaPrefecture: 'ｸﾏﾓﾄｹﾝ',
      kanaMunicipality: 'ｸﾏﾓﾄｼﾁｭｳｵｳｸ',
      kanaSection: 'ﾖｺﾃ',
      kanaChome: null,
    },
    {
      id: 2,
      addressCode: '8600046-5b761674',
      addressFull: '熊本県熊本市西区横手',
      prefecture: '熊本県',
      municipality: '熊本市西区',
      section: '横手',
      chome: null,
      kanaPrefecture: 'ｸﾏﾓﾄｹﾝ',
      kanaMunicipality: 'ｸﾏﾓﾄｼﾆｼｸ',
      kanaSection: 'ﾖｺﾃ',
      kanaChome: null,
    },
  ],
};

const READINGS: Record<string, string> = { 福岡: 'ﾌｸｵｶ', 花子: 'ﾊﾅｺ', 山田: 'ﾔﾏﾀﾞ' };

interface FakeServer {
  application: Record<string, unknown>;
  /** The stored personal document (GET /api/applications' forms.personal). */
  personal: Record<string, unknown> | undefined;
  posted: Record<string, unknown>[];
  furigana: string[];
  /** Set: GET /api/furigana answers once it settles (a slow network). */
  furiganaHeld?: Promise<void>;
  addresses: string[];
  answerPersonal: (body: Record<string, unknown>) => Response;
}

function startServer(application: Record<string, unknown> = {}, personal?: Record<string, unknown>): FakeServer {
  const server: FakeServer = {
    application: { bankCode: '0177', applicationType: 'GENERAL', ...personal, ...application },
    personal,
    posted: [],
    furigana: [],
    addresses: [],
    answerPersonal: () => json({}),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const { url, route } = requestOf(input, init);
      if (route === 'GET /api/applications') return json({ application: server.application, applicationParent: null, forms: server.personal ? { personal: server.personal } : {} });
      if (route === 'GET /api/addresses') {
        const code = url.searchParams.get('postalNumber') ?? '';
        server.addresses.push(code);
        if (!/^\d{7}$/.test(code)) return json({ message: '住所を検索してください' }, 400);
        return json({ addressList: ADDRESSES[code] ?? [] });
      }
      if (route === 'GET /api/furigana') {
        const kanji = url.searchParams.get('kanji') ?? '';
        server.furigana.push(kanji);
        await server.furiganaHeld;
        if (kanji === '' || [...kanji].length > 20) return json({ message: '入力内容に誤りがあります。ご確認ください。' }, 400);
        return json({ kana: READINGS[kanji] ?? 'ﾃｽﾄ' });
      }
      if (route === 'POST /api/applications/personal') {
        const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
        server.posted.push(body);
        return server.answerPersonal(body);
      }
      return json({ message: 'not found' }, 404);
    }),
  );
  return server;
}

function renderPersonal(settings: ClientSettings = settingsFor()) {
  const props = screenProps('/personal', { settings });
  render(inRouter('/personal', <FormStep {...props} />));
  return props;
}

const field = (label: RegExp | string) => screen.getByLabelText(label);
/** A field by its label, whose text ends in the 必須/任意 badge. */
const byLabel = (text: string) => screen.getByLabelText(new RegExp(`^${text}(必須|任意|いずれか必須)?$`));
const group = (name: string) => screen.getByRole('group', { name: new RegExp(`^${name}`) });

/** The form is shown once the application is read and the schema with its validator loaded (slow on a busy machine). */
async function ready() {
  return screen.findByRole('button', { name: '次へ' }, { timeout: 10_000 });
}

async function chooseBirthday(user: UserEvent, year: string, month: string, day: string) {
  const birthday = within(group('生年月日'));
  await user.selectOptions(birthday.getByLabelText('年'), year);
  await user.selectOptions(birthday.getByLabelText('月'), month);
  await user.selectOptions(birthday.getByLabelText('日'), day);
}

async function searchPostal(user: UserEvent, code: string) {
  const postal = byLabel('郵便番号');
  await user.clear(postal);
  await user.type(postal, code);
  await user.click(screen.getByRole('button', { name: '住所を検索' }));
}

/** Everything a valid application needs (general by default: born 1990), typed as an applicant would. */
async function fillValidForm(user: UserEvent, birthday: [year: string, month: string, day: string] = ['1990', '1', '15']) {
  await user.type(byLabel('お名前（姓）'), '福岡');
  await user.type(byLabel('お名前（名）'), '花子');
  await user.clear(byLabel('フリガナ（セイ）'));
  await user.type(byLabel('フリガナ（セイ）'), 'ふくおか');
  await user.clear(byLabel('フリガナ（メイ）'));
  await user.type(byLabel('フリガナ（メイ）'), 'はなこ');
  await chooseBirthday(user, ...birthday);
  await user.click(screen.getByLabelText('女性'));
  await user.type(screen.getByLabelText('携帯電話番号（最初の3桁）'), '090');
  await user.type(screen.getByLabelText('携帯電話番号（中の4桁）'), '1234');
  await user.type(screen.getByLabelText('携帯電話番号（最後の4桁）'), '5678');
  await searchPostal(user, '8100001');
  await screen.findByText('福岡県福岡市中央区天神', { selector: 'output' });
  await user.type(byLabel('番地・建物名・部屋番号（フリガナ）'), '1-2-3');
  await user.type(byLabel('番地・建物名・部屋番号'), '1-2-3');
  await user.click(screen.getByLabelText('生計費決済'));
}

beforeEach(() => {
  sessionStorage.setItem('authenticationToken', 'token');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  sessionStorage.clear();
});

describe('/personal', { timeout: 20_000 }, () => {
  it('suggests furigana from the name and never overwrites kana the applicant typed', async () => {
    const server = startServer();
    const user = userEvent.setup();
    renderPersonal();
    await ready();

    await user.type(byLabel('お名前（姓）'), '福岡');
    await user.tab();
    await waitFor(() => expect(byLabel('フリガナ（セイ）')).toHaveProperty('value', 'ﾌｸｵｶ'));

    // Still our suggestion: a corrected name replaces it.
    await user.clear(byLabel('お名前（姓）'));
    await user.type(byLabel('お名前（姓）'), '山田');
    await user.tab();
    await waitFor(() => expect(byLabel('フリガナ（セイ）')).toHaveProperty('value', 'ﾔﾏﾀﾞ'));

    // Typed by the applicant first: the lookup leaves it alone.
    await user.type(byLabel('フリガナ（メイ）'), 'ハナ');
    await user.type(byLabel('お名前（名）'), '花子');
    await user.tab();
    await waitFor(() => expect(server.furigana).not.toContain('花子'));
    expect(byLabel('フリガナ（メイ）')).toHaveProperty('value', 'ﾊﾅ');

    // Not kanji or hiragana: no lookup at all.
    await user.clear(byLabel('お名前（名）'));
    await user.type(byLabel('お名前（名）'), 'Hanako');
    await user.tab();
    expect(server.furigana).toEqual(['福岡', '山田']);
  });

  it('leaves the kana the applicant began typing while the suggestion was on its way', async () => {
    const server = startServer();
    let answer = () => {};
    server.furiganaHeld = new Promise<void>((resolve) => (answer = resolve));
    const user = userEvent.setup();
    renderPersonal();
    await ready();

    await user.type(byLabel('お名前（姓）'), '山田');
    await user.tab();
    await waitFor(() => expect(server.furigana).toEqual(['山田']));
    const kana = byLabel('フリガナ（セイ）');
    await user.type(kana, 'ﾔ');
    answer();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await user.type(kana, 'ﾏﾀﾞ');
    await user.tab();
    expect(kana).toHaveProperty('value', 'ﾔﾏﾀﾞ');
  });

  it('normalises kana on blur (ぱ → ﾊﾟ) and never during an IME composition', async () => {
    startServer();
    const user = userEvent.setup();
    renderPersonal();
    await ready();

    const kana = byLabel('フリガナ（セイ）');
    await user.type(kana, 'ぱ');
    expect(kana).toHaveProperty('value', 'ぱ');
    await user.tab();
    await waitFor(() => expect(kana).toHaveProperty('value', 'ﾊﾟ'));

    // During a composition the text stays as typed, even when the field loses the focus;
    // it is normalised once the composition ends.
    const first = byLabel('フリガナ（メイ）');
    first.focus();
    fireEvent.compositionStart(first);
    fireEvent.change(first, { target: { value: 'きょうこ' } });
    fireEvent.blur(first);
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    expect(first).toHaveProperty('value', 'きょうこ');
    fireEvent.compositionEnd(first, { data: 'きょうこ' });
    await waitFor(() => expect(first).toHaveProperty('value', 'ｷﾖｳｺ'));
  });

  it('refuses an applicant under 18 on submit and moves the focus to the birthday', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-06-15T10:00:00+09:00'));
    startServer();
    const user = userEvent.setup();
    renderPersonal();
    await ready();

    await user.type(byLabel('お名前（姓）'), 'Fukuoka');
    await user.type(byLabel('お名前（名）'), 'Hanako');
    await user.type(byLabel('フリガナ（セイ）'), 'ﾌｸｵｶ');
    await user.type(byLabel('フリガナ（メイ）'), 'ﾊﾅｺ');
    // The general year list ends at this year − 18; born 2007-12-31 is 17 on 2025-06-15.
    await chooseBirthday(user, '2007', '12', '31');
    await user.click(screen.getByRole('button', { name: '次へ' }));

    expect(await screen.findByText('18歳未満の方はお申込みできません。')).toBeTruthy();
    expect(document.activeElement).toBe(within(group('生年月日')).getByLabelText('年'));
  });

  it('asks for the distance reason only at bank 0177 for an address outside 福岡県', async () => {
    startServer();
    const user = userEvent.setup();
    renderPersonal();
    await ready();
    expect(screen.queryByLabelText(/^遠隔地でのお取引の理由/)).toBeNull();

    await searchPostal(user, '8600046');
    // Two candidates: none chosen yet, so no prefecture yet.
    const candidates = await screen.findByRole('group', { name: '住所の候補' });
    expect(within(candidates).getAllByRole('radio')).toHaveLength(2);
    expect(screen.queryByLabelText(/^遠隔地でのお取引の理由/)).toBeNull();
    await user.click(screen.getByLabelText('熊本県熊本市西区横手'));
    expect(await screen.findByLabelText(/^遠隔地でのお取引の理由/)).toBeTruthy();

    // A single candidate in 福岡県 is chosen at once; the reason is no longer asked.
    await searchPostal(user, '8100001');
    const chosen = await screen.findByRole('radio', { name: '福岡県福岡市中央区天神' });
    expect(chosen).toHaveProperty('checked', true);
    await waitFor(() => expect(screen.queryByLabelText(/^遠隔地でのお取引の理由/)).toBeNull());
  });

  it('never asks for the distance reason at a bank without that rule (0587)', async () => {
    startServer({ bankCode: '0587' });
    const user = userEvent.setup();
    renderPersonal(bank0587Settings());
    await ready();
    await searchPostal(user, '8100001');
    await screen.findByText('福岡県福岡市中央区天神', { selector: 'output' });
    expect(screen.queryByLabelText(/^遠隔地でのお取引の理由/)).toBeNull();
  });

  it('starts the temporary address at the bank’s prefecture, and keeps what was typed in it while it is not asked', async () => {
    startServer();
    const user = userEvent.setup();
    renderPersonal();
    await ready();

    await user.click(screen.getByLabelText('該当する住所がない'));
    const prefecture = await screen.findByLabelText(/^都道府県/);
    expect(prefecture).toHaveProperty('value', '福岡県');
    expect(screen.queryByLabelText(/^郵便番号/)).toBeNull();
    expect(screen.queryByLabelText(/^番地・建物名・部屋番号/)).toBeNull();

    await user.type(byLabel('住所（市区町村以降）'), '福岡市中央区天神1-1');
    await user.click(screen.getByLabelText('該当する住所がない'));
    expect(await screen.findByLabelText(/^郵便番号/)).toBeTruthy();
    // Not asked, it is neither shown nor posted; ticked again, what was typed is there (the posts: the form-steps tests).
    await user.click(screen.getByLabelText('該当する住所がない'));
    expect(await screen.findByLabelText(/^住所（市区町村以降）/)).toHaveProperty('value', '福岡市中央区天神1-1');
  });

  it('uses the bank’s own default prefecture (0587: 熊本県)', async () => {
    startServer({ bankCode: '0587' });
    const user = userEvent.setup();
    renderPersonal(bank0587Settings());
    await ready();
    await user.click(screen.getByLabelText('該当する住所がない'));
    expect(await screen.findByLabelText(/^都道府県/)).toHaveProperty('value', '熊本県');
  });

  it('posts the form and goes on; a 400 shows the server’s errors at their fields', async () => {
    const server = startServer();
    server.answerPersonal = () =>
      json(
        {
          message: '住所を検索してください',
          errors: [
            { field: 'addressCode', message: '住所を検索してください' },
            { field: 'kanaSubAddress', message: 'カタカナで入力してください。' },
          ],
        },
        400,
      );
    const user = userEvent.setup();
    const props = renderPersonal();
    await ready();
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: '次へ' }));

    await waitFor(() => expect(server.posted).toHaveLength(1));
    expect(server.posted[0]).toMatchObject({
      lastName: '福岡',
      kanaLastName: 'ﾌｸｵｶ',
      kanaFirstName: 'ﾊﾅｺ',
      birthday: '1990-01-15',
      gender: 'WOMAN',
      mobilePhoneNumber: '090-1234-5678',
      noMatchingAddress: false,
      postalNumber: '8100001',
      addressCode: '8100001-d6bfc86a',
      subAddress: '1-2-3',
      kanaSubAddress: '1-2-3',
      utilizationPurpose: ['LIVING'],
    });
    // What was not entered, or is not asked (the temporary address, その他, the distance reason), is not sent.
    for (const field of ['phoneNumber', 'tempAddressPrefecture', 'utilizationPurposeOther', 'distanceTransactionReason']) expect(server.posted[0]).not.toHaveProperty(field);
    const postal = byLabel('郵便番号');
    await waitFor(() => expect(document.activeElement).toBe(postal));
    expect(within(postal.closest('.field') as HTMLElement).getByText('住所を検索してください')).toBeTruthy();
    expect(screen.getByText('カタカナで入力してください。')).toBeTruthy();
    expect(props.send).not.toHaveBeenCalled();

    // Correcting a field drops its server message and leaves the focus where the applicant is.
    const kana = byLabel('番地・建物名・部屋番号（フリガナ）');
    await user.type(kana, '4');
    expect(screen.queryByText('カタカナで入力してください。')).toBeNull();
    expect(document.activeElement).toBe(kana);

    server.answerPersonal = () => json({});
    await user.click(screen.getByRole('button', { name: '次へ' }));
    await waitFor(() => expect(props.send).toHaveBeenCalledWith({ type: 'NEXT' }));
  });

  it('shows what was entered before, with the stored address chosen among its candidates', async () => {
    const server = startServer({}, {
      lastName: '福岡',
      firstName: '花子',
      kanaLastName: 'ﾌｸｵｶ',
      kanaFirstName: 'ﾊﾅｺ',
      birthday: '1990-01-15',
      gender: 'WOMAN',
      mobilePhoneNumber: '090-1234-5678',
      phoneNumber: '092-123-4567',
      postalNumber: '8600046',
      addressCode: '8600046-5b761674',
      addressPrefecture: '熊本県',
      addressMunicipality: '熊本市西区',
      addressSection: '横手',
      subAddress: '1-2-3',
      kanaSubAddress: '1-2-3',
      noMatchingAddress: false,
      utilizationPurpose: ['SAVINGS', 'OTHER'],
      utilizationPurposeOther: '家賃の支払い',
      distanceTransactionReason: '福岡市内に勤務しているため',
    });
    const props = renderPersonal();
    await ready();
    expect(byLabel('お名前（姓）')).toHaveProperty('value', '福岡');
    expect(within(group('生年月日')).getByLabelText('月')).toHaveProperty('value', '1');
    expect(screen.getByLabelText('女性')).toHaveProperty('checked', true);
    expect(screen.getByLabelText('市外局番')).toHaveProperty('value', '092');
    expect(byLabel('郵便番号')).toHaveProperty('value', '860-0046');
    expect(await screen.findByRole('radio', { name: '熊本県熊本市西区横手' })).toHaveProperty('checked', true);
    expect(server.addresses).toEqual(['8600046']);
    expect(screen.getByLabelText('その他')).toHaveProperty('checked', true);
    expect(byLabel('「その他」のご利用目的')).toHaveProperty('value', '家賃の支払い');
    expect(byLabel('遠隔地でのお取引の理由')).toHaveProperty('value', '福岡市内に勤務しているため');

    await userEvent.setup().click(screen.getByRole('button', { name: '戻る' }));
    expect(props.send).toHaveBeenCalledWith({ type: 'BACK' });
  });

  it('leaves for the error page when the address search fails', async () => {
    startServer();
    const failing = vi.mocked(fetch);
    const answer = failing.getMockImplementation();
    failing.mockImplementation(async (input, init) => {
      if (String(input).includes('/api/addresses')) return json({ message: 'boom' }, 500);
      return (answer as typeof fetch)(input, init);
    });
    const user = userEvent.setup();
    renderPersonal();
    await ready();
    await searchPostal(user, '8100001');
    expect(await screen.findByTestId('location')).toHaveProperty('textContent', '/error');
  });
});

// Labels of the grouped controls are checked here once, so the tests above can rely on them.
describe('/personal field semantics', () => {
  it('ties every control to a label and sets autocomplete and inputmode', async () => {
    startServer();
    renderPersonal();
    await ready();
    expect(byLabel('お名前（姓）').getAttribute('autocomplete')).toBe('family-name');
    const postal = byLabel('郵便番号');
    expect(postal.getAttribute('autocomplete')).toBe('postal-code');
    expect(postal.getAttribute('inputmode')).toBe('numeric');
    const mobile = screen.getByLabelText('携帯電話番号（最初の3桁）');
    expect(mobile.getAttribute('inputmode')).toBe('numeric');
    expect(mobile.getAttribute('autocomplete')).toBe('tel-area-code');
    expect(within(group('生年月日')).getByLabelText('年').getAttribute('autocomplete')).toBe('bday-year');
    expect(within(group('生年月日')).getByLabelText('年')).toHaveProperty('value', '1990');
    expect(within(group('口座のご利用目的')).getByText('複数選択可')).toBeTruthy();
    expect(field('公営競技（競馬・競輪など）')).toBeTruthy();
  });
});

describe('step POSTs once the PIN is set', { timeout: 20_000 }, () => {
  it('/personal says so in an alert that takes the focus, and stays on the page', async () => {
    const server = startServer();
    server.answerPersonal = () => json({ message: messages.stepsLockedAfterPin }, 409);
    const user = userEvent.setup();
    const props = renderPersonal();
    await ready();
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: '次へ' }));
    await expectStepLockAlert(props.send);
  });

  /** The smallest step page on useStepPost, as FormStep uses it for /branch, /seal-less and /workplace. */
  function StepPage({ send, fail }: { send: (event: { type: string }) => void; fail: (error?: unknown) => void }) {
    const { busy, fieldErrorsAt, notice, postInOrder } = useStepPost(send, fail);
    return (
      <>
        {notice}
        <p data-testid="errors">{fieldErrorsAt('/applications/branch').map((error) => `${error.field}:${error.message}`).join(',')}</p>
        <button type="button" disabled={busy} onClick={() => void postInOrder([{ path: '/applications/branch', body: { branchCode: '101' } }])}>
          次へ
        </button>
      </>
    );
  }

  it.each([
    ['the PIN lock (409)', json({ message: messages.stepsLockedAfterPin }, 409), 'notice'],
    ['a 400', json({ message: messages.selectRequired, errors: [{ field: 'branchCode', message: messages.selectRequired }] }, 400), 'field'],
    ['another 409', json({ message: '親権者さまの情報を先に登録してください。' }, 409), 'fail'],
    ['a 500', json({ message: 'boom' }, 500), 'fail'],
  ] as const)('useStepPost: %s', async (_label, answer, outcome) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer.clone()),
    );
    const send = vi.fn();
    const fail = vi.fn();
    const user = userEvent.setup();
    render(<StepPage send={send} fail={fail} />);
    await user.click(screen.getByRole('button', { name: '次へ' }));
    await waitFor(() => expect(screen.getByRole('button', { name: '次へ' })).toHaveProperty('disabled', false));
    expect(send).not.toHaveBeenCalled();
    expect(fail).toHaveBeenCalledTimes(outcome === 'fail' ? 1 : 0);
    expect(screen.getByTestId('errors').textContent).toBe(outcome === 'field' ? `branchCode:${messages.selectRequired}` : '');
    if (outcome === 'notice') {
      const alert = screen.getByRole('alert');
      expect(alert.textContent).toBe(messages.stepsLockedAfterPin);
      await waitFor(() => expect(document.activeElement).toBe(alert));
    } else {
      expect(screen.queryByRole('alert')).toBeNull();
    }
  });
});

describe('/child/personal: the child’s own occupation and invitation code', { timeout: 30_000 }, () => {
  const OCCUPATIONS = [
    { id: 1, name: '学生', displayNumber: 1, generalDisplay: true, childDisplay: true, minDisplayAge: 6, maxDisplayAge: null, workplaceRequired: false },
    { id: 2, name: '未就学児', displayNumber: 2, generalDisplay: false, childDisplay: true, minDisplayAge: null, maxDisplayAge: 5, workplaceRequired: false },
    { id: 3, name: '会社員', displayNumber: 3, generalDisplay: true, childDisplay: false, minDisplayAge: null, maxDisplayAge: null, workplaceRequired: true },
    { id: 9, name: 'その他', displayNumber: 0, generalDisplay: true, childDisplay: true, minDisplayAge: null, maxDisplayAge: null, workplaceRequired: false },
  ];
  /** Invitation codes GET /api/invitation knows (anything else: 404). */
  const INVITATIONS = new Set(['FBK001']);
  /** /child/personal asks two forms: the second's ids carry its name. */
  const CHILD_INVITATION_ID = 'workplace_invitationCode';

  async function childSetup(application: Record<string, unknown> = {}) {
    const server = startServer({ applicationType: 'CHILD', ...application });
    const inner = globalThis.fetch;
    const calls: string[] = [];
    const lookups: string[] = [];
    const workplace: Record<string, unknown>[] = [];
    /** What POST /api/applications/workplace answers (a 400 only the server knows, once). */
    const answers: { workplace: Response | null } = { workplace: null };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const { url, route } = requestOf(input, init);
        if (route.startsWith('POST')) calls.push(route);
        if (route === 'GET /api/occupations') return json({ occupationList: OCCUPATIONS });
        if (route === 'GET /api/applications') {
          // The child's workplace document once saved (its occupation and code).
          const { occupationId, invitationCode } = server.application;
          const stored = occupationId === undefined ? {} : { workplace: { occupationId, invitationCode } };
          return json({ application: server.application, applicationParent: null, forms: stored });
        }
        if (route === 'GET /api/invitation') {
          lookups.push(`${url.pathname}${url.search}`);
          const code = url.searchParams.get('code') ?? '';
          return INVITATIONS.has(code) ? json({ code }) : json({ message: messages.invitationNotFound }, 404);
        }
        if (route === 'POST /api/applications/workplace') {
          workplace.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
          const answer = answers.workplace ?? json({});
          answers.workplace = null;
          return answer;
        }
        return inner(input, init);
      }),
    );
    const props = screenProps('/child/personal');
    render(inRouter('/child/personal', <FormStep {...props} />));
    return { server, calls, lookups, workplace, answers, props };
  }

  /** Both forms are drawn (the page's 次へ shows before them). */
  const childReady = async () => {
    await screen.findByLabelText(/^ご職業/, undefined, { timeout: 10_000 });
    await screen.findByRole('group', { name: /^生年月日/ }, { timeout: 10_000 });
  };

  const options = () =>
    within(byLabel('ご職業'))
      .getAllByRole('option')
      .map((option) => option.textContent);
  const year = (age: number) => String(new Date().getFullYear() - age);
  const next = () => screen.getByRole('button', { name: '次へ' });
  const invitationInput = () => byLabel('紹介コード') as HTMLInputElement;
  const invitationError = () => document.getElementById(`${CHILD_INVITATION_ID}__error`)?.textContent ?? '';
  const button = (name: RegExp) => screen.getByRole('button', { name });

  /** A valid 10-year-old child who is a 学生. */
  async function fillValidChild(user: UserEvent) {
    await fillValidForm(user, [year(10), '1', '1']);
    await user.selectOptions(byLabel('ご職業'), '学生');
  }

  it('lists the occupations the child’s age allows and clears one a new birthday does not', async () => {
    await childSetup();
    const user = userEvent.setup();
    await childReady();

    await chooseBirthday(user, year(15), '1', '1');
    expect(options()).toEqual(['選択してください', '学生', 'その他']);
    await user.selectOptions(byLabel('ご職業'), '学生');
    expect((byLabel('ご職業') as HTMLSelectElement).selectedOptions[0]?.textContent).toBe('学生');

    await chooseBirthday(user, year(3), '1', '1');
    await waitFor(() => expect(options()).toEqual(['選択してください', '未就学児', 'その他']));
    expect(byLabel('ご職業')).toHaveProperty('value', '');
  });

  it('posts the personal data, then the occupation as the child’s workplace data, then goes on', async () => {
    const { calls, lookups, workplace, props } = await childSetup();
    const user = userEvent.setup();
    await childReady();

    await fillValidForm(user, [year(10), '1', '1']);
    await user.selectOptions(byLabel('ご職業'), 'その他');
    await user.type(byLabel('ご職業（その他）'), '子役');

    await user.click(next());
    await waitFor(() => expect(props.send).toHaveBeenCalledWith({ type: 'NEXT' }));
    expect(calls).toEqual(['POST /api/applications/personal', 'POST /api/applications/workplace']);
    // The answers given: nothing of a workplace is asked of a child (the server stores null for the rest).
    expect(workplace).toEqual([{ occupationId: 9, occupationOther: '子役' }]);
    // No code from /child/before-check, none typed: nothing asked.
    expect(lookups).toEqual([]);
  });

  it('applies the code of /child/before-check on arrival, locks it and sends it with the child’s workplace data', async () => {
    sessionStorage.setItem('invitation', 'fbk001');
    const { lookups, workplace, props } = await childSetup();
    const user = userEvent.setup();
    await childReady();
    expect(lookups).toEqual(['/api/invitation?code=FBK001']);
    expect(invitationInput().value).toBe('FBK001');
    expect(invitationInput().readOnly).toBe(true);
    expect(screen.getByText('紹介コードを適用しました。')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^適用（紹介コード）/ })).toBeNull();

    await fillValidChild(user);
    await user.click(next());
    await waitFor(() => expect(props.send).toHaveBeenCalledWith({ type: 'NEXT' }));
    expect(workplace[0]).toMatchObject({ occupationId: 1, invitationCode: 'FBK001' });
  });

  it('says a code of /child/before-check is not found (404) at once, blocks 次へ and focuses it; クリア lets the step go on', async () => {
    sessionStorage.setItem('invitation', 'NOPE99');
    const { calls, workplace, props } = await childSetup();
    const user = userEvent.setup();
    await childReady();
    await waitFor(() => expect(invitationError()).toBe(`${messages.invitationNotFound}${messages.confirmCode}`));
    expect(invitationInput().getAttribute('aria-invalid')).toBe('true');
    expect(invitationInput().getAttribute('aria-describedby')).toContain(`${CHILD_INVITATION_ID}__error`);

    await fillValidChild(user);
    await user.click(next());
    await waitFor(() => expect(document.activeElement).toBe(invitationInput()));
    expect(calls).toEqual([]);

    await user.click(button(/^クリア（紹介コード）/));
    expect(invitationError()).toBe('');
    await user.click(next());
    await waitFor(() => expect(props.send).toHaveBeenCalledWith({ type: 'NEXT' }));
    expect(workplace[0]).not.toHaveProperty('invitationCode');
  });

  it('asks to apply a typed code, then verifies it with 適用 and locks it', async () => {
    const { calls, lookups, workplace, props } = await childSetup();
    const user = userEvent.setup();
    await childReady();
    await fillValidChild(user);
    await user.type(invitationInput(), 'ｆｂｋ００１');
    await user.click(next());
    await waitFor(() => expect(invitationError()).toBe(messages.confirmCode));
    expect(document.activeElement).toBe(invitationInput());
    expect(calls).toEqual([]);

    // Typed full width and lower case: applied half width, upper case.
    await user.click(button(/^適用（紹介コード）/));
    await waitFor(() => expect(invitationInput().readOnly).toBe(true));
    expect(invitationInput().value).toBe('FBK001');
    expect(invitationError()).toBe('');
    expect(lookups).toEqual(['/api/invitation?code=FBK001']);
    await user.click(next());
    await waitFor(() => expect(props.send).toHaveBeenCalledWith({ type: 'NEXT' }));
    expect(workplace[0]).toMatchObject({ invitationCode: 'FBK001' });
  });

  it('shows the saved code locked when the applicant comes back, without asking again', async () => {
    sessionStorage.setItem('invitation', 'OTHER1');
    const { lookups } = await childSetup({ occupationId: 1, occupationName: '学生', invitationCode: 'FBK001' });
    await childReady();
    expect(invitationInput().value).toBe('FBK001');
    expect(invitationInput().readOnly).toBe(true);
    expect((byLabel('ご職業') as HTMLSelectElement).selectedOptions[0]?.textContent).toBe('学生');
    expect(lookups).toEqual([]);
  });

  it("shows the server's 400 for a code that ended since it was applied, and focuses it", async () => {
    sessionStorage.setItem('invitation', 'FBK001');
    const { answers, props } = await childSetup();
    answers.workplace = json({ message: messages.invitationNotFound, errors: [{ field: 'invitationCode', message: messages.invitationNotFound }] }, 400);
    const user = userEvent.setup();
    await childReady();
    await fillValidChild(user);
    await user.click(next());
    await waitFor(() => expect(invitationError()).toBe(`${messages.invitationNotFound}${messages.confirmCode}`));
    expect(document.activeElement).toBe(invitationInput());
    expect(invitationInput().readOnly).toBe(false);
    expect(props.send).not.toHaveBeenCalled();
  });

  it('once the PIN is set, says so in an alert that takes the focus (the child’s workplace data refused)', async () => {
    const { answers, props } = await childSetup();
    answers.workplace = json({ message: messages.stepsLockedAfterPin }, 409);
    const user = userEvent.setup();
    await childReady();
    await fillValidChild(user);
    await user.click(next());
    await expectStepLockAlert(props.send);
  });
});
