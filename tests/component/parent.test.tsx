import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import FormStep from '../../src/client/screens/FormStep';
import { messages } from '../../src/domain/messages';
import { inRouter, json, screenProps, expectStepLockAlert, requestOf } from './fixtures';


/** The bank's occupations as GET /api/occupations answers them (one not for the general list, その他 first by number). */
const OCCUPATIONS = [
  { id: 1, name: '会社員', displayNumber: 10, generalDisplay: true, childDisplay: true, minDisplayAge: 15, maxDisplayAge: null, workplaceRequired: true },
  { id: 9, name: 'その他', displayNumber: 5, generalDisplay: true, childDisplay: true, minDisplayAge: null, maxDisplayAge: null, workplaceRequired: false },
  { id: 7, name: '無職', displayNumber: 60, generalDisplay: true, childDisplay: true, minDisplayAge: null, maxDisplayAge: null, workplaceRequired: false },
  { id: 10, name: '未就学児', displayNumber: 70, generalDisplay: false, childDisplay: true, minDisplayAge: 0, maxDisplayAge: 6, workplaceRequired: false },
];

/** /child/parent asks two forms (meta.form): a page of several prefixes each form's control ids with its name. */
const PARENT_ID_PREFIX = 'parent';
const PARENT_WORKPLACE_ID_PREFIX = 'parent-workplace';
const WORKPLACE_FIELDS = ['occupationId', 'occupationOther', 'workplaceName', 'workplacePhoneNumber'];

/** The parent's record as GET /api/applications gives it again by form (`forms`), each without its empty answers. */
function formsOf(parent: Record<string, unknown> | null): Record<string, Record<string, unknown>> {
  if (!parent) return {};
  const given = Object.entries(parent).filter(([field, value]) => value !== null && field !== 'occupationName');
  return {
    parent: Object.fromEntries(given.filter(([field]) => !WORKPLACE_FIELDS.includes(field))),
    'parent-workplace': Object.fromEntries(given.filter(([field]) => WORKPLACE_FIELDS.includes(field))),
  };
}

const CHILD = { bankCode: '0177', applicationType: 'CHILD', lastName: '福岡', kanaLastName: 'ﾌｸｵｶ', firstName: '花子', kanaFirstName: 'ﾊﾅｺ', birthday: '2015-04-01' };

interface FakeServer {
  /** The child as GET /api/applications answers it. */
  application: Record<string, unknown>;
  parent: Record<string, unknown> | null;
  /** Every call the page made, as 'METHOD /path'. */
  calls: string[];
  posts: { path: string; body: Record<string, unknown> }[];
  /** A 400 the server gives once to a post (a rule only the server knows), by path. */
  refuse: Record<string, { field: string; message: string }>;
  /** The PIN is set: every step POST answers 409 (src/server/routes/step-lock.ts). */
  locked: boolean;
  /** GET /api/furigana's reading per name (full-width katakana); none known: an empty reading, nothing suggested. */
  furigana: Record<string, string>;
}

/** A small stand-in for the server: the stored child (and parent), the occupation master, the two posts. */
function startServer(parent: Record<string, unknown> | null = null, application: Record<string, unknown> = CHILD): FakeServer {
  const server: FakeServer = { application, parent, calls: [], posts: [], refuse: {}, locked: false, furigana: {} };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const { url, route } = requestOf(input, init);
      server.calls.push(route);
      if (route === 'GET /api/applications') return json({ application: server.application, applicationParent: server.parent, forms: formsOf(server.parent) });
      if (route === 'GET /api/occupations') return json({ occupationList: OCCUPATIONS });
      if (route === 'GET /api/furigana') return json({ kana: server.furigana[url.searchParams.get('kanji') ?? ''] ?? '' });
      if (route === 'POST /api/applications/personal/parent' || route === 'POST /api/applications/workplace/parent') {
        if (server.locked) return json({ message: messages.stepsLockedAfterPin }, 409);
        const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
        server.posts.push({ path: url.pathname, body });
        const refusal = server.refuse[url.pathname];
        if (refusal) {
          delete server.refuse[url.pathname];
          return json({ message: refusal.message, errors: [refusal] }, 400);
        }
        if (route.includes('personal') && body.lastName !== CHILD.lastName) {
          return json({ message: '親権者さまとお子さまの姓が異なっています。', errors: [{ field: 'lastName', message: '親権者さまとお子さまの姓が異なっています。' }] }, 400);
        }
        return json({});
      }
      return json({ message: 'not found' }, 404);
    }),
  );
  return server;
}

function renderParent() {
  const props = screenProps('/child/parent');
  render(inRouter('/child/parent', <FormStep {...props} />));
  return props;
}

/** The text that names a control: its <label>s, else aria-labelledby, else aria-label. */
function labelOf(control: HTMLElement): string {
  const fromLabels = [...((control as HTMLInputElement).labels ?? [])].map((label) => label.textContent ?? '').join(' ');
  const labelledBy = (control.getAttribute('aria-labelledby') ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
  return (fromLabels.trim() || labelledBy.trim() || control.getAttribute('aria-label')?.trim()) ?? '';
}

const byLabel = (text: string) => screen.getByLabelText(new RegExp(`^${text}(必須|任意|いずれか必須)?$`));
const group = (name: string) => screen.getByRole('group', { name: new RegExp(`^${name}`) });
/** Both parts are shown once the application and occupations are read and both schemas loaded. */
async function ready() {
  const label = (text: string) => new RegExp(`^${text}(必須|任意)?$`);
  await screen.findByLabelText(label('お名前（姓）'), undefined, { timeout: 10_000 });
  await screen.findByLabelText(label('ご職業'), undefined, { timeout: 10_000 });
}

async function chooseBirthday(user: UserEvent, year: string, month: string, day: string) {
  const birthday = within(group('生年月日'));
  await user.selectOptions(birthday.getByLabelText('年'), year);
  await user.selectOptions(birthday.getByLabelText('月'), month);
  await user.selectOptions(birthday.getByLabelText('日'), day);
}

async function fillValid(user: UserEvent, lastName = '福岡', kana = 'ﾌｸｵｶ') {
  // The surnames start as the child's (never asked twice): typed over here.
  await user.clear(byLabel('お名前（姓）'));
  await user.clear(byLabel('フリガナ（セイ）'));
  await user.type(byLabel('お名前（姓）'), lastName);
  await user.type(byLabel('お名前（名）'), '太郎');
  await user.type(byLabel('フリガナ（セイ）'), kana);
  await user.type(byLabel('フリガナ（メイ）'), 'ﾀﾛｳ');
  await chooseBirthday(user, '1985', '6', '10');
  await user.click(screen.getByLabelText('父'));
  await user.type(screen.getByLabelText('携帯電話番号（最初の3桁）'), '090');
  await user.type(screen.getByLabelText('携帯電話番号（中の4桁）'), '1234');
  await user.type(screen.getByLabelText('携帯電話番号（最後の4桁）'), '5678');
  await user.selectOptions(byLabel('ご職業'), '会社員');
  await user.type(byLabel('お勤め先名'), '福岡商事');
  const phone = within(group('お勤め先電話番号'));
  await user.type(phone.getByLabelText('市外局番'), '092');
  await user.type(phone.getByLabelText('市内局番'), '123');
  await user.type(phone.getByLabelText('加入者番号'), '4567');
}

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const next = () => screen.getByRole('button', { name: '次へ' });

describe('/child/parent', () => {
  it('lists the general occupations with その他 last and shows the proxy reason', async () => {
    startServer();
    renderParent();
    await ready();
    const options = within(byLabel('ご職業')).getAllByRole('option').map((option) => option.textContent);
    expect(options.filter((name) => name && !name.includes('選択'))).toEqual(['会社員', '無職', 'その他']);
    expect(screen.getByText('お子さまが未成年のため')).toBeTruthy();
  });

  it('suggests the furigana of the parent\'s name when it is left, as for every name pair', async () => {
    const server = startServer();
    server.furigana = { 福岡: 'フクオカ', 一郎: 'イチロウ' };
    const user = userEvent.setup();
    renderParent();
    await ready();
    await user.clear(byLabel('お名前（姓）'));
    await user.clear(byLabel('フリガナ（セイ）'));
    await user.type(byLabel('お名前（姓）'), '福岡');
    await user.type(byLabel('お名前（名）'), '一郎');
    await user.click(byLabel('フリガナ（メイ）'));
    await waitFor(() => expect((byLabel('フリガナ（セイ）') as HTMLInputElement).value).toBe('ﾌｸｵｶ'));
    await waitFor(() => expect((byLabel('フリガナ（メイ）') as HTMLInputElement).value).toBe('ｲﾁﾛｳ'));
    expect(server.calls.filter((call) => call === 'GET /api/furigana')).toHaveLength(2);
  });

  it('posts the parent, then the workplace, then goes NEXT', async () => {
    const server = startServer();
    const user = userEvent.setup();
    const props = renderParent();
    await ready();
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: '次へ' }));
    await waitFor(() => expect(props.send).toHaveBeenCalledWith({ type: 'NEXT' }));
    expect(server.posts.map((post) => post.path)).toEqual(['/api/applications/personal/parent', '/api/applications/workplace/parent']);
    expect(server.posts[0]?.body).toEqual({
      bankCode: '0177',
      lastName: '福岡',
      firstName: '太郎',
      kanaLastName: 'ﾌｸｵｶ',
      kanaFirstName: 'ﾀﾛｳ',
      birthday: '1985-06-10',
      relationship: 'FATHER',
      mobilePhoneNumber: '090-1234-5678',
      // No home phone: left out, as every empty answer (the server stores null).
      proxyApplicationReason: 'MINOR',
    });
    // The spec's four fields less the その他 text not asked: the invitation code is the child's (/child/personal).
    expect(server.posts[1]?.body).toEqual({
      occupationId: 1,
      workplaceName: '福岡商事',
      workplacePhoneNumber: '092-123-4567',
    });
  }, 30_000);

  it('asks no invitation code, even with one from /child/before-check', async () => {
    sessionStorage.setItem('invitation', 'FBK001');
    const server = startServer();
    renderParent();
    await ready();
    expect(screen.queryByLabelText(/^紹介コード/)).toBeNull();
    expect(server.calls.filter((call) => call.includes('invitation'))).toEqual([]);
  });

  it('once the PIN is set, says so in an alert that takes the focus, and stays on the page', async () => {
    const server = startServer();
    server.locked = true;
    const user = userEvent.setup();
    const props = renderParent();
    await ready();
    await fillValid(user);
    await user.click(next());
    await expectStepLockAlert(props.send);
    // Pressed again: announced again (a new alert), the focus on it again.
    await user.click(next());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('alert')));
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  }, 30_000);

  it('shows the surname mismatch at the fields and posts nothing', async () => {
    const server = startServer();
    const user = userEvent.setup();
    const props = renderParent();
    await ready();
    await fillValid(user, '山田', 'ﾔﾏﾀﾞ');
    await user.click(screen.getByRole('button', { name: '次へ' }));
    expect(await screen.findByText('親権者さまとお子さまの姓が異なっています。')).toBeTruthy();
    expect(screen.getByText(/親権者さまとお子さまの姓\(セイ\)が異なっています。/)).toBeTruthy();
    expect(server.posts).toEqual([]);
    expect(props.send).not.toHaveBeenCalled();
  }, 30_000);

  it('refuses a parent aged 17', async () => {
    // A fixed day, so the case holds whatever day the test runs (not on 31 December otherwise).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-15T10:00:00+09:00'));
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const server = startServer();
    const user = userEvent.setup();
    renderParent();
    await ready();
    await fillValid(user);
    // The youngest year offered is this year − 18; with the clock on 15 June, 31 December of it is 17.
    const today = new Date();
    await chooseBirthday(user, String(today.getFullYear() - 18), '12', '31');
    await user.click(screen.getByRole('button', { name: '次へ' }));
    expect(await screen.findByText('18歳未満の方は親権者としてお申込みできません。')).toBeTruthy();
    expect(server.posts).toEqual([]);
  }, 30_000);

  it('gives every element its own id and every control its label', async () => {
    startServer();
    renderParent();
    await ready();
    const ids = [...document.querySelectorAll('[id]')].map((element) => element.id);
    const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
    expect(repeated).toEqual([]);
    // Each form's controls carry its own prefix: a label's htmlFor can only name its own input.
    expect(document.getElementById(`${PARENT_ID_PREFIX}_lastName`)).toBeInstanceOf(HTMLInputElement);
    expect(document.getElementById(`${PARENT_WORKPLACE_ID_PREFIX}_occupationId`)).toBeInstanceOf(HTMLSelectElement);
    expect(document.querySelectorAll('[id^="root_"], #root')).toHaveLength(0);

    const controls = [...document.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input:not([type="hidden"]), select, textarea')];
    expect(controls.length).toBeGreaterThan(10);
    for (const control of controls) expect(labelOf(control), `control #${control.id}`).not.toBe('');
    // The labels name the controls of their own part of the page.
    expect(byLabel('お名前（姓）').id).toBe(`${PARENT_ID_PREFIX}_lastName`);
    expect(byLabel('ご職業').id).toBe(`${PARENT_WORKPLACE_ID_PREFIX}_occupationId`);
    expect(byLabel('お勤め先名').id).toBe(`${PARENT_WORKPLACE_ID_PREFIX}_workplaceName`);
  });

  it('starts with the child\'s surname and its kana, which the parent\'s must equal (never asked twice)', async () => {
    startServer();
    renderParent();
    await ready();
    expect((byLabel('お名前（姓）') as HTMLInputElement).value).toBe(CHILD.lastName);
    expect((byLabel('フリガナ（セイ）') as HTMLInputElement).value).toBe(CHILD.kanaLastName);
    expect((byLabel('お名前（名）') as HTMLInputElement).value).toBe('');
  });

  it('focuses the first field in error of the page, in the parent part first', async () => {
    const server = startServer();
    const user = userEvent.setup();
    renderParent();
    await ready();
    await user.click(screen.getByRole('button', { name: '次へ' }));
    // The surname is the child's already: the first field left empty is the first name.
    await waitFor(() => expect(document.activeElement?.id).toBe(`${PARENT_ID_PREFIX}_firstName`));
    expect(document.getElementById(`${PARENT_WORKPLACE_ID_PREFIX}_occupationId__error`)?.textContent).toBe('選択が必須です。');
    expect(server.posts).toEqual([]);
  }, 30_000);

  it.each([
    ['/api/applications/personal/parent', 'mobilePhoneNumber', '携帯電話番号を正しく入力してください。', PARENT_ID_PREFIX],
    ['/api/applications/workplace/parent', 'workplaceName', '＜は使用できません。', PARENT_WORKPLACE_ID_PREFIX],
  ])("shows the server's 400 of %s at its field and focuses it", async (path, field, message, prefix) => {
    const server = startServer();
    server.refuse[path] = { field, message };
    const user = userEvent.setup();
    const props = renderParent();
    await ready();
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: '次へ' }));
    await waitFor(() => expect(document.getElementById(`${prefix}_${field}__error`)?.textContent).toBe(message));
    expect(document.activeElement?.id).toBe(`${prefix}_${field}`);
    expect(screen.getAllByText(message)).toHaveLength(1);
    expect(props.send).not.toHaveBeenCalled();
  }, 30_000);

  it('shows what was saved when the applicant comes back', async () => {
    startServer({
      lastName: '福岡',
      firstName: '洋子',
      kanaLastName: 'ﾌｸｵｶ',
      kanaFirstName: 'ﾖｳｺ',
      birthday: '1988-02-03',
      relationship: 'MOTHER',
      mobilePhoneNumber: '080-1111-2222',
      phoneNumber: null,
      proxyApplicationReason: 'MINOR',
      occupationId: 9,
      occupationName: 'その他',
      occupationOther: '個人事業主',
      workplaceName: null,
      workplacePhoneNumber: null,
    });
    renderParent();
    await ready();
    expect((byLabel('お名前（名）') as HTMLInputElement).value).toBe('洋子');
    expect((screen.getByLabelText('母') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('携帯電話番号（中の4桁）') as HTMLInputElement).value).toBe('1111');
    expect((byLabel('ご職業') as HTMLSelectElement).value).toBeTruthy();
    expect((byLabel('ご職業（その他）') as HTMLInputElement).value).toBe('個人事業主');
  }, 30_000);
});
