import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import child from '../../flows/child.json';
import Parent from '../../src/client/screens/Parent';
import type { FlowConfig } from '../../src/domain/flow/types';
import { describeFlow, type FlowModel } from '../../src/domain/flow/model';
import { inRouter, json, screenProps } from './fixtures';

const childFlow: FlowModel = describeFlow(child as unknown as FlowConfig);

/** The bank's occupations as GET /api/occupations answers them (one not for the general list, その他 first by number). */
const OCCUPATIONS = [
  { id: 1, name: '会社員', displayNumber: 10, generalDisplay: true, childDisplay: true, minDisplayAge: 15, maxDisplayAge: null, workplaceRequired: true },
  { id: 9, name: 'その他', displayNumber: 5, generalDisplay: true, childDisplay: true, minDisplayAge: null, maxDisplayAge: null, workplaceRequired: false },
  { id: 7, name: '無職', displayNumber: 60, generalDisplay: true, childDisplay: true, minDisplayAge: null, maxDisplayAge: null, workplaceRequired: false },
  { id: 10, name: '未就学児', displayNumber: 70, generalDisplay: false, childDisplay: true, minDisplayAge: 0, maxDisplayAge: 6, workplaceRequired: false },
];

const CHILD = { bankCode: '0177', applicationType: 'CHILD', lastName: '福岡', kanaLastName: 'ﾌｸｵｶ', firstName: '花子', kanaFirstName: 'ﾊﾅｺ', birthday: '2015-04-01' };

interface FakeServer {
  parent: Record<string, unknown> | null;
  posts: { path: string; body: Record<string, unknown> }[];
}

/** A small stand-in for the server: the stored child (and parent), the occupation master, the two posts. */
function startServer(parent: Record<string, unknown> | null = null): FakeServer {
  const server: FakeServer = { parent, posts: [] };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
      const route = `${(init?.method ?? 'GET').toUpperCase()} ${url.pathname}`;
      if (route === 'GET /api/applications') return json({ application: CHILD, applicationParent: server.parent });
      if (route === 'GET /api/occupations') return json({ occupationList: OCCUPATIONS });
      if (route === 'POST /api/applications/personal/parent' || route === 'POST /api/applications/workplace/parent') {
        const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
        server.posts.push({ path: url.pathname, body });
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
  const page = childFlow.pageByPath.get('/child/parent');
  if (!page) throw new Error('no /child/parent');
  const props = screenProps('/personal', { flow: childFlow, page });
  render(inRouter('/child/parent', <Parent {...props} />));
  return props;
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
});

describe('/child/parent', () => {
  it('lists the general occupations with その他 last and shows the proxy reason', async () => {
    startServer();
    renderParent();
    await ready();
    const options = within(byLabel('ご職業')).getAllByRole('option').map((option) => option.textContent);
    expect(options.filter((name) => name && !name.includes('選択'))).toEqual(['会社員', '無職', 'その他']);
    expect(screen.getByText('お子さまが未成年のため')).toBeTruthy();
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
      phoneNumber: null,
      proxyApplicationReason: 'MINOR',
    });
    expect(server.posts[1]?.body).toEqual({ occupationId: 1, occupationOther: null, workplaceName: '福岡商事', workplacePhoneNumber: '092-123-4567' });
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
