import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import FormStep from '../../src/client/screens/FormStep';
import { messages } from '../../src/domain/messages';
import { inRouter, json, screenProps, requestOf } from './fixtures';

/**
 * A small stand-in for the server's side of /workplace, answering as the real routes do: the
 * bank's occupations (some not for the general flow, その他 with a low display number), two
 * workplaces (one permitting an existing account), one invitation code, the stored
 * application, and the POST that stores the step.
 */
const OCCUPATIONS = [
  { id: 1, name: '会社員', displayNumber: 10, generalDisplay: true, childDisplay: true, minDisplayAge: 15, maxDisplayAge: null, workplaceRequired: true },
  { id: 9, name: 'その他', displayNumber: 5, generalDisplay: true, childDisplay: true, minDisplayAge: null, maxDisplayAge: null, workplaceRequired: false },
  { id: 6, name: '学生', displayNumber: 60, generalDisplay: true, childDisplay: true, minDisplayAge: null, maxDisplayAge: null, workplaceRequired: false },
  { id: 2, name: '公務員', displayNumber: 20, generalDisplay: true, childDisplay: false, minDisplayAge: 18, maxDisplayAge: null, workplaceRequired: true },
  { id: 10, name: '未就学児', displayNumber: 70, generalDisplay: false, childDisplay: true, minDisplayAge: 0, maxDisplayAge: 6, workplaceRequired: false },
];

const WORKPLACES: Record<string, { id: number; name: string; phoneNumber: string; multipleAccounts: string }> = {
  F10001: { id: 1, name: '株式会社博多ロジテック', phoneNumber: '092-123-4567', multipleAccounts: 'PERMITTED' },
  FK200003: { id: 2, name: '医療法人天神中央病院', phoneNumber: '092-711-2345', multipleAccounts: 'NOT_PERMITTED' },
};
const INVITATIONS = new Set(['FBK001']);

interface FakeServer {
  application: Record<string, unknown>;
  lookups: string[];
  posted: Record<string, unknown>[];
  answerPost: (body: Record<string, unknown>) => Response;
}

function startServer(application: Record<string, unknown> = {}): FakeServer {
  const server: FakeServer = {
    application: { bankCode: '0177', applicationType: 'GENERAL', occupationId: null, ...application },
    lookups: [],
    posted: [],
    answerPost: () => json({}),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const { url, route } = requestOf(input, init);
      if (route !== 'GET /api/applications' && route !== 'GET /api/occupations') server.lookups.push(`${route}${url.search}`);
      if (route === 'GET /api/occupations') return json({ occupationList: OCCUPATIONS });
      if (route === 'GET /api/applications') return json({ application: server.application, applicationParent: null, forms: formsOf(server.application) });
      if (route === 'GET /api/workplace') {
        const found = WORKPLACES[url.searchParams.get('code') ?? ''];
        return found ? json(found) : json({ message: messages.workplaceNotFound }, 404);
      }
      if (route === 'GET /api/invitation') {
        const code = url.searchParams.get('code') ?? '';
        return INVITATIONS.has(code) ? json({ code }) : json({ message: messages.invitationNotFound }, 404);
      }
      if (route === 'POST /api/applications/workplace') {
        const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
        server.posted.push(body);
        return server.answerPost(body);
      }
      return json({ message: 'not found' }, 404);
    }),
  );
  return server;
}

const WORKPLACE_DOCUMENT = ['occupationId', 'occupationOther', 'workplaceName', 'workplacePhoneNumber', 'workplaceId', 'workplaceCode', 'invitationCode', 'existedAccountBranchCode', 'existedAccountNumber'];

/** The stored workplace document as GET /api/applications gives it again (`forms`), once the step was saved. */
function formsOf(application: Record<string, unknown>): Record<string, Record<string, unknown>> {
  if (application.occupationId === null || application.occupationId === undefined) return {};
  return { workplace: Object.fromEntries(WORKPLACE_DOCUMENT.filter((field) => field in application).map((field) => [field, application[field]])) };
}

/** A body as the form step posts it: the answers given (the server stores null for the rest). */
const sent = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null));

function setCookie(name: string, value: string) {
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/`;
}

function renderWorkplace() {
  const props = screenProps('/workplace');
  render(inRouter('/workplace', <FormStep {...props} />));
  return props;
}

/** A control by its label, whose text ends in the 必須/任意 badge. */
const byLabel = (text: string) => screen.getByLabelText(new RegExp(`^${text}(必須|任意|いずれか必須)?$`));
const queryByLabel = (text: string) => screen.queryByLabelText(new RegExp(`^${text}(必須|任意|いずれか必須)?$`));
const fieldOf = (element: HTMLElement) => element.closest<HTMLElement>('.field') as HTMLElement;
const phoneParts = () => within(screen.getByRole('group', { name: /^お勤め先電話番号/ })).getAllByRole('textbox');
const button = (name: RegExp | string) => screen.getByRole('button', { name });

/** The form is drawn once the master data, the application and the schema are in (a cold schema import can be slow). */
async function ready() {
  return screen.findByRole('button', { name: '次へ' }, { timeout: 5000 });
}

async function chooseOccupation(user: UserEvent, name: string) {
  await user.selectOptions(byLabel('ご職業'), name);
}

async function typePhone(user: UserEvent, parts: [string, string, string]) {
  const inputs = phoneParts();
  for (const [index, part] of parts.entries()) {
    const input = inputs[index];
    if (input && part) await user.type(input, part);
  }
}

beforeEach(() => {
  sessionStorage.clear();
  document.cookie.split('; ').forEach((part) => {
    const name = part.split('=')[0];
    if (name) document.cookie = `${name}=; Max-Age=0; Path=/`;
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('/workplace occupations', () => {
  it('lists only the occupations of the general flow, by display number, その他 last; its text field only for その他', async () => {
    startServer();
    renderWorkplace();
    await ready();
    const select = byLabel('ご職業');
    expect(within(select).getAllByRole('option').map((option) => option.textContent)).toEqual(['選択してください', '会社員', '公務員', '学生', 'その他']);
    expect(queryByLabel('ご職業（その他）')).toBeNull();

    const user = userEvent.setup();
    await chooseOccupation(user, 'その他');
    expect(byLabel('ご職業（その他）')).toBeTruthy();
    await user.click(button('次へ'));
    expect(await within(fieldOf(byLabel('ご職業（その他）'))).findByText(messages.required)).toBeTruthy();

    await chooseOccupation(user, '学生');
    expect(queryByLabel('ご職業（その他）')).toBeNull();
  });

  it('asks for an occupation first, and focuses it', async () => {
    startServer();
    renderWorkplace();
    const user = userEvent.setup();
    await user.click(await ready());
    expect(await within(fieldOf(byLabel('ご職業'))).findByText(messages.selectRequired)).toBeTruthy();
    expect(document.activeElement).toBe(byLabel('ご職業'));
  });

  it('requires the workplace name and phone when the occupation needs a workplace, and not otherwise', async () => {
    const server = startServer();
    renderWorkplace();
    await ready();
    const user = userEvent.setup();
    await chooseOccupation(user, '会社員');
    expect(byLabel('お勤め先名').getAttribute('aria-required')).toBe('true');
    await user.click(button('次へ'));
    expect(await within(fieldOf(byLabel('お勤め先名'))).findByText(messages.required)).toBeTruthy();
    const phoneGroup = screen.getByRole('group', { name: /^お勤め先電話番号/ });
    expect(within(phoneGroup).getByText(messages.required)).toBeTruthy();
    expect(document.activeElement).toBe(byLabel('お勤め先名'));
    expect(server.posted).toEqual([]);

    await chooseOccupation(user, '学生');
    expect(byLabel('お勤め先名').getAttribute('aria-required')).toBeNull();
    await user.click(button('次へ'));
    await waitFor(() => expect(server.posted).toHaveLength(1));
    expect(server.posted[0]).toEqual(sent({
      occupationId: 6,
      occupationOther: null,
      workplaceName: null,
      workplacePhoneNumber: null,
      workplaceId: null,
      invitationCode: null,
      existedAccountBranchCode: null,
      existedAccountNumber: null,
    }));
  });

  it('writes the workplace name in full width on blur, reports forbidden symbols, and checks a partly given phone', async () => {
    const server = startServer();
    const props = renderWorkplace();
    await ready();
    const user = userEvent.setup();
    await chooseOccupation(user, '会社員');
    const name = byLabel('お勤め先名');
    expect(name.getAttribute('autocomplete')).toBe('organization');
    await user.type(name, '㈱ABC！');
    await user.tab();
    await waitFor(() => expect((name as HTMLInputElement).value).toBe('株式会社ＡＢＣ！'));
    expect(await within(fieldOf(name)).findByText('！は使用できません。')).toBeTruthy();

    await user.clear(name);
    await user.type(name, 'ﾃｽﾄ商事');
    await typePhone(user, ['092', '123', '']);
    await user.click(button('次へ'));
    const phoneGroup = screen.getByRole('group', { name: /^お勤め先電話番号/ });
    expect(await within(phoneGroup).findByText(messages.workplacePhone)).toBeTruthy();

    const last = phoneParts()[2];
    if (last) await user.type(last, '4567');
    await user.click(button('次へ'));
    await waitFor(() => expect(props.send).toHaveBeenCalledWith({ type: 'NEXT' }));
    expect(server.posted[0]).toEqual({ occupationId: 1, workplaceName: 'テスト商事', workplacePhoneNumber: '092-123-4567' });
  });
});

describe('/workplace codes', () => {
  it('reminds with a toast that stays until closed when neither code came from the landing URL', async () => {
    startServer();
    renderWorkplace();
    await ready();
    const toast = screen.getByText(messages.workplaceOrInvitationReminder);
    expect(toast).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByText(messages.workplaceOrInvitationReminder)).toBeTruthy();
    await userEvent.setup().click(within(toast.closest('.toast') as HTMLElement).getByRole('button', { name: '閉じる' }));
    expect(screen.queryByText(messages.workplaceOrInvitationReminder)).toBeNull();
  });

  it('fills in and applies the codes of the landing URL: workplace locked with its name and phone, no reminder', async () => {
    setCookie('workplace', 'f10001');
    setCookie('invitation', 'FBK001');
    const server = startServer();
    renderWorkplace();
    await ready();
    expect(screen.queryByText(messages.workplaceOrInvitationReminder)).toBeNull();
    expect(server.lookups).toEqual(['GET /api/workplace?code=F10001', 'GET /api/invitation?code=FBK001']);

    const code = byLabel('勤務先コード') as HTMLInputElement;
    expect(code.value).toBe('F10001');
    expect(code.readOnly).toBe(true);
    expect(screen.queryByRole('button', { name: /^適用（勤務先コード）/ })).toBeNull();
    expect(screen.getByText('勤務先コードを適用しました。')).toBeTruthy();
    const name = byLabel('お勤め先名') as HTMLInputElement;
    expect(name.value).toBe('株式会社博多ロジテック');
    expect(name.readOnly).toBe(true);
    expect(phoneParts().map((input) => (input as HTMLInputElement).value)).toEqual(['092', '123', '4567']);
    expect(phoneParts().every((input) => (input as HTMLInputElement).readOnly)).toBe(true);
    expect((byLabel('紹介コード') as HTMLInputElement).readOnly).toBe(true);
  });

  it('says at once when a code of the landing URL is not found, and leaves it to the applicant to correct or clear', async () => {
    setCookie('workplace', 'ZZZZZZ');
    const server = startServer();
    renderWorkplace();
    await ready();
    const code = byLabel('勤務先コード') as HTMLInputElement;
    expect(code.value).toBe('ZZZZZZ');
    expect(code.readOnly).toBe(false);
    expect(await within(fieldOf(code)).findByText(messages.workplaceNotFound)).toBeTruthy();
    expect(server.lookups).toEqual(['GET /api/workplace?code=ZZZZZZ']);
    expect(screen.queryByText(messages.workplaceOrInvitationReminder)).toBeNull();
  });

  it('applies a typed code: half width on blur, found → locked; 「クリア」 resets code, name, phone and the account section', async () => {
    const server = startServer();
    renderWorkplace();
    await ready();
    const user = userEvent.setup();
    await chooseOccupation(user, '会社員');
    await user.type(byLabel('お勤め先名'), '自分で入力した会社');
    const code = byLabel('勤務先コード') as HTMLInputElement;
    expect(button(/^適用（勤務先コード）/).hasAttribute('disabled')).toBe(true);
    await user.type(code, 'ｆ１０００１');
    await user.tab();
    expect(code.value).toBe('F10001');
    await user.click(button(/^適用（勤務先コード）/));

    await waitFor(() => expect(code.readOnly).toBe(true));
    expect(server.lookups).toEqual(['GET /api/workplace?code=F10001']);
    expect((byLabel('お勤め先名') as HTMLInputElement).value).toBe('株式会社博多ロジテック');
    expect(screen.getByRole('group', { name: /^お持ちの口座がありますか/ })).toBeTruthy();

    await user.click(button(/^クリア（勤務先コード）/));
    expect(code.value).toBe('');
    expect(code.readOnly).toBe(false);
    expect(document.activeElement).toBe(code);
    await waitFor(() => expect((byLabel('お勤め先名') as HTMLInputElement).value).toBe(''));
    expect((byLabel('お勤め先名') as HTMLInputElement).readOnly).toBe(false);
    expect(phoneParts().map((input) => (input as HTMLInputElement).value)).toEqual(['', '', '']);
    expect(screen.queryByRole('group', { name: /^お持ちの口座がありますか/ })).toBeNull();
  });

  it('says a code is not found: 404 from the server, or a length other than 6 or 8 without asking', async () => {
    const server = startServer();
    renderWorkplace();
    await ready();
    const user = userEvent.setup();
    const code = byLabel('勤務先コード');
    await user.type(code, 'ZZZZZZ');
    await user.click(button(/^適用（勤務先コード）/));
    expect(await within(fieldOf(code)).findByText(messages.workplaceNotFound)).toBeTruthy();
    expect(server.lookups).toEqual(['GET /api/workplace?code=ZZZZZZ']);

    await user.clear(code);
    await user.type(code, 'F1000');
    await user.click(button(/^適用（勤務先コード）/));
    await waitFor(() => expect(within(fieldOf(code)).getByText(messages.workplaceNotFound)).toBeTruthy());
    expect(server.lookups).toHaveLength(1);
    expect((code as HTMLInputElement).readOnly).toBe(false);
  });

  it('blocks 次へ while a code is typed but not applied, with the message at that code', async () => {
    const server = startServer();
    renderWorkplace();
    await ready();
    const user = userEvent.setup();
    await chooseOccupation(user, '学生');
    await user.type(byLabel('勤務先コード'), 'F10001');
    await user.type(byLabel('紹介コード'), 'FBK001');
    await user.click(button('次へ'));
    expect(await within(fieldOf(byLabel('勤務先コード'))).findByText(messages.confirmCode)).toBeTruthy();
    expect(within(fieldOf(byLabel('紹介コード'))).getByText(messages.confirmCode)).toBeTruthy();
    expect(document.activeElement).toBe(byLabel('勤務先コード'));
    expect(server.posted).toEqual([]);

    // Cleared and applied: the messages go, and the verified invitation code is sent.
    await user.click(button(/^クリア（勤務先コード）/));
    await user.click(button(/^適用（紹介コード）/));
    await waitFor(() => expect((byLabel('紹介コード') as HTMLInputElement).readOnly).toBe(true));
    await waitFor(() => expect(screen.queryByText(messages.confirmCode)).toBeNull());
    await user.click(button('次へ'));
    await waitFor(() => expect(server.posted).toHaveLength(1));
    expect(server.posted[0]).toEqual({ occupationId: 6, invitationCode: 'FBK001' });
  });

  it('reports an unknown invitation code and does not send it', async () => {
    const server = startServer();
    renderWorkplace();
    await ready();
    const user = userEvent.setup();
    const invitation = byLabel('紹介コード');
    await user.type(invitation, 'NOPE99');
    await user.click(button(/^適用（紹介コード）/));
    expect(await within(fieldOf(invitation)).findByText(messages.invitationNotFound)).toBeTruthy();
    await user.type(invitation, '{Backspace}');
    await user.type(invitation, 'X');
    expect(server.lookups).toEqual(['GET /api/invitation?code=NOPE99']);
  });
});

describe('/workplace existing account', () => {
  it('asks about an existing account only for a workplace that permits one, and sends it zero-padded', async () => {
    const server = startServer();
    const props = renderWorkplace();
    await ready();
    const user = userEvent.setup();
    await chooseOccupation(user, '会社員');
    await user.type(byLabel('勤務先コード'), 'FK200003');
    await user.click(button(/^適用（勤務先コード）/));
    await waitFor(() => expect((byLabel('お勤め先名') as HTMLInputElement).value).toBe('医療法人天神中央病院'));
    expect(screen.queryByRole('group', { name: /^お持ちの口座がありますか/ })).toBeNull();

    await user.click(button(/^クリア（勤務先コード）/));
    await user.type(byLabel('勤務先コード'), 'F10001');
    await user.click(button(/^適用（勤務先コード）/));
    const section = await screen.findByRole('group', { name: /^お持ちの口座がありますか/ });

    // Unanswered: the question must be answered.
    await user.click(button('次へ'));
    expect(await within(section).findByText(messages.selectRequired)).toBeTruthy();

    await user.click(within(section).getByLabelText('はい'));
    const branch = within(section).getByLabelText(/^店番/);
    const account = within(section).getByLabelText(/^口座番号/);
    expect(branch.getAttribute('inputmode')).toBe('numeric');
    await user.type(branch, '1a');
    await user.type(account, '3456');
    await user.click(button('次へ'));
    expect(await within(section).findByText(messages.existingAccount)).toBeTruthy();
    expect(document.activeElement).toBe(branch);

    // Corrected: the message goes at once, before the next 次へ.
    await user.clear(branch);
    await user.type(branch, '12');
    await waitFor(() => expect(within(section).queryByText(messages.existingAccount)).toBeNull());
    await user.click(button('次へ'));
    await waitFor(() => expect(props.send).toHaveBeenCalledWith({ type: 'NEXT' }));
    expect(server.posted[0]).toEqual(sent({
      occupationId: 1,
      occupationOther: null,
      workplaceName: '株式会社博多ロジテック',
      workplacePhoneNumber: '092-123-4567',
      workplaceId: 1,
      invitationCode: null,
      existedAccountBranchCode: '012',
      existedAccountNumber: '0003456',
    }));
  });
});

describe('/workplace coming back and failures', () => {
  it('shows what was saved, with the applied codes locked and the existing account', async () => {
    setCookie('workplace', 'FK200003'); // a later landing code does not replace what was saved
    const server = startServer({
      occupationId: 1,
      occupationName: '会社員',
      workplaceId: 1,
      workplaceCode: 'F10001',
      workplaceName: '株式会社博多ロジテック',
      workplacePhoneNumber: '092-123-4567',
      invitationCode: 'FBK001',
      existedAccountBranchCode: '012',
      existedAccountNumber: '0003456',
    });
    renderWorkplace();
    await ready();
    expect((byLabel('ご職業') as HTMLSelectElement).selectedOptions[0]?.textContent).toBe('会社員');
    expect((byLabel('勤務先コード') as HTMLInputElement).value).toBe('F10001');
    expect((byLabel('勤務先コード') as HTMLInputElement).readOnly).toBe(true);
    expect((byLabel('紹介コード') as HTMLInputElement).value).toBe('FBK001');
    expect((byLabel('紹介コード') as HTMLInputElement).readOnly).toBe(true);
    const section = screen.getByRole('group', { name: /^お持ちの口座がありますか/ });
    expect((within(section).getByLabelText('はい') as HTMLInputElement).checked).toBe(true);
    expect((within(section).getByLabelText(/^店番/) as HTMLInputElement).value).toBe('012');
    expect((within(section).getByLabelText(/^口座番号/) as HTMLInputElement).value).toBe('0003456');
    expect(server.lookups).toEqual(['GET /api/workplace?code=F10001']);
    expect(screen.queryByText(messages.workplaceOrInvitationReminder)).toBeNull();
  });

  it('goes to the error page when the stored workplace phone does not split into three parts', async () => {
    startServer({ occupationId: 6, occupationName: '学生', workplaceName: 'テスト', workplacePhoneNumber: '0921234567' });
    renderWorkplace();
    expect(await screen.findByTestId('location')).toHaveProperty('textContent', '/error');
  });

  it('shows the server’s 400 at the fields, and goes to the error page on any other failure', async () => {
    const server = startServer();
    server.answerPost = () => json({ message: messages.invitationNotFound, errors: [{ field: 'invitationCode', message: messages.invitationNotFound }] }, 400);
    renderWorkplace();
    await ready();
    const user = userEvent.setup();
    await chooseOccupation(user, '学生');
    await user.type(byLabel('紹介コード'), 'FBK001');
    await user.click(button(/^適用（紹介コード）/));
    await waitFor(() => expect((byLabel('紹介コード') as HTMLInputElement).readOnly).toBe(true));
    await user.click(button('次へ'));
    expect(await within(fieldOf(byLabel('紹介コード'))).findByText(messages.invitationNotFound)).toBeTruthy();
    // Not found now: open again, to correct or clear.
    await waitFor(() => expect((byLabel('紹介コード') as HTMLInputElement).readOnly).toBe(false));
    await user.click(button(/^クリア（紹介コード）/));

    server.answerPost = () => json({ message: 'error' }, 500);
    await user.click(button('次へ'));
    expect(await screen.findByTestId('location')).toHaveProperty('textContent', '/error');
  });

  it('shows again what was typed and not sent, the その他 text too', async () => {
    startServer();
    const first = render(inRouter('/workplace', <FormStep {...screenProps('/workplace')} />));
    await ready();
    const user = userEvent.setup();
    await chooseOccupation(user, 'その他');
    await user.type(byLabel('ご職業（その他）'), '個人事業主');
    first.unmount();

    renderWorkplace();
    await ready();
    expect((byLabel('ご職業') as HTMLSelectElement).selectedOptions[0]?.textContent).toBe('その他');
    expect((byLabel('ご職業（その他）') as HTMLInputElement).value).toBe('個人事業主');
  });

  it('goes back to /personal with 戻る', async () => {
    startServer();
    const props = renderWorkplace();
    await ready();
    await userEvent.setup().click(button('戻る'));
    expect(props.send).toHaveBeenCalledWith({ type: 'BACK' });
  });
});
