import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import GeneralTerm from '../../src/client/screens/GeneralTerm';
import { messages } from '../../src/domain/messages';
import { bank0587Settings, fakeApi, inRouter, json, pretendUserAgent, screenProps, userAgents } from './fixtures';

const HOUR = 60 * 60 * 1000;
const iso = (ms: number) => new Date(ms).toISOString();
const notFound = () => json({ message: 'not found' }, 404);

function renderTerm(url = '/term', props = screenProps('/term')) {
  render(inRouter(url, <GeneralTerm {...props} />));
  return props;
}

/** Waits until the landing checks have settled (the last call they make has been answered). */
async function checksDone(calls: string[], last: string) {
  await waitFor(() => expect(calls).toContain(last));
}

const question = (name: RegExp) => screen.getByRole('group', { name });
const Q = {
  first: /Q1\..*初めて口座を開設/,
  document: /Q2\..*本人確認書類/,
  adult: /Q3\..*満18歳以上/,
  eligibility: /Q4\..*すべてに該当/,
  regulations: /Q5\..*Web口座開設規定に同意/,
  myNumber: /Q6\..*マイナンバー/,
  passbook: /Q7\..*通帳の発行/,
  seal: /Q8\..*印鑑の登録/,
};

async function choose(user: UserEvent, name: RegExp, label: string | RegExp) {
  await user.click(within(question(name)).getByRole('radio', { name: label }));
}

async function answerAllGates(user: UserEvent) {
  await choose(user, Q.first, 'はい');
  await choose(user, Q.document, 'はい');
  await choose(user, Q.adult, 'はい');
  await choose(user, Q.eligibility, 'はい');
  await choose(user, Q.regulations, '同意する');
}

beforeEach(() => {
  sessionStorage.clear();
  document.cookie.split('; ').forEach((part) => {
    const name = part.split('=')[0];
    if (name) document.cookie = `${name}=; Max-Age=0; Path=/`;
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('/term modal precedence', () => {
  it('shows the maintenance modal when a window is active, even in an unsupported browser, and loads no notifications', async () => {
    // Only Date is faked, so React and user-event keep their real timers.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-30T16:30:00Z')); // 2026-12-01 01:30 in Japan
    pretendUserAgent(userAgents.iPhoneLine);
    const { calls } = fakeApi({
      'GET /api/maintenance': () => json({ startedAt: '2026-11-30T15:00:00Z', endedAt: '2026-11-30T21:00:00Z' }),
      'GET /api/notifications/0177': () => json({ notificationList: [{ contents: 'お知らせ' }] }),
    });
    renderTerm();

    const dialog = await screen.findByRole('dialog', { name: 'メンテナンス中' });
    expect(dialog).toHaveProperty('ariaModal', 'true');
    expect(within(dialog).getByText('2026年12月1日 0:00 ～ 2026年12月1日 6:00')).toBeTruthy();
    expect(within(dialog).getByText(/終了時刻が前後する場合/)).toBeTruthy();
    const back = within(dialog).getByRole('link', { name: 'サービス紹介ページへ戻る' });
    expect(back.getAttribute('href')).toBe('https://www.fukuokabank.co.jp/kojin/kouza/web/');
    expect(document.activeElement).toBe(dialog);
    expect(screen.queryByRole('dialog', { name: 'ご注意' })).toBeNull();
    expect(calls).not.toContain('GET /api/notifications/0177');

    // Not closable: Escape leaves it open.
    await userEvent.setup().keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'メンテナンス中' })).toBeTruthy();
  });

  it('treats a 404 on maintenance as none, then warns an in-app browser before any notification', async () => {
    pretendUserAgent(userAgents.iPhoneLine);
    const { calls } = fakeApi({
      'GET /api/maintenance': notFound,
      'GET /api/notifications/0177': () => json({ notificationList: [{ contents: 'お知らせ' }] }),
    });
    renderTerm();

    const dialog = await screen.findByRole('dialog', { name: 'ご注意' });
    expect(within(dialog).getByText(/Safari/)).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'サービス紹介ページへ戻る' })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: '閉じる' })).toBeNull();
    expect(calls).toEqual(['GET /api/maintenance']);
  });

  it('ignores a maintenance window that is not active now', async () => {
    pretendUserAgent(userAgents.iPhoneSafari);
    const now = Date.now();
    const { calls } = fakeApi({
      'GET /api/maintenance': () => json({ startedAt: iso(now + HOUR), endedAt: iso(now + 2 * HOUR) }),
      'GET /api/notifications/0177': () =>
        json({ notificationList: [{ contents: '年末年始のお手続きについて' }, { contents: 'システム更新のお知らせ' }] }),
    });
    renderTerm();

    const dialog = await screen.findByRole('dialog', { name: '重要なお知らせ' });
    expect(within(dialog).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      '年末年始のお手続きについて',
      'システム更新のお知らせ',
    ]);
    expect(screen.queryByRole('dialog', { name: 'メンテナンス中' })).toBeNull();
    expect(calls).toEqual(['GET /api/maintenance', 'GET /api/notifications/0177']);

    // Closable: the page behind it becomes usable again.
    await userEvent.setup().click(within(dialog).getByRole('button', { name: '閉じる' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(question(Q.first)).toBeTruthy();
  });

  it('warns a device that is not a phone with a dialog that Escape closes', async () => {
    pretendUserAgent(userAgents.desktopChrome);
    const { calls } = fakeApi({ 'GET /api/maintenance': notFound });
    renderTerm();

    const dialog = await screen.findByRole('dialog', { name: 'ご注意' });
    expect(within(dialog).getByText(/スマートフォン専用/)).toBeTruthy();
    expect(calls).not.toContain('GET /api/notifications/0177');
    // The page behind the dialog is hidden from assistive technology while it is open.
    expect(screen.queryByRole('group', { name: Q.first })).toBeNull();

    const user = userEvent.setup();
    // Focus stays inside: Tab from the only button comes back to it.
    await user.tab();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: '閉じる' }));
    await user.tab();
    expect(dialog.contains(document.activeElement)).toBe(true);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows nothing when there is no maintenance and no notification', async () => {
    pretendUserAgent(userAgents.iPhoneSafari);
    const { calls } = fakeApi({ 'GET /api/maintenance': notFound, 'GET /api/notifications/0177': notFound });
    renderTerm();
    await checksDone(calls, 'GET /api/notifications/0177');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByTestId('location')).toBeNull();
  });

  it('goes to /error when the maintenance call fails with anything but 404', async () => {
    pretendUserAgent(userAgents.iPhoneSafari);
    fakeApi({ 'GET /api/maintenance': () => json({ message: 'boom' }, 500) });
    renderTerm();
    expect((await screen.findByTestId('location')).textContent).toBe('/error');
  });

  it('goes to /error when the notification call fails with anything but 404', async () => {
    pretendUserAgent(userAgents.iPhoneSafari);
    fakeApi({ 'GET /api/maintenance': notFound, 'GET /api/notifications/0177': () => json({}, 503) });
    renderTerm();
    expect((await screen.findByTestId('location')).textContent).toBe('/error');
  });
});

describe('/term landing parameters', () => {
  it('keeps valid parameters after the entry clear, and drops invalid ones', async () => {
    pretendUserAgent(userAgents.iPhoneSafari);
    const { calls } = fakeApi({});
    const deviceId = '0f8fad5b-d9cb-469f-a165-70867728950e';
    renderTerm(`/term?channel=line_campaign&deviceId=${deviceId}&workplace=12345678&invitation=1234567`);
    await checksDone(calls, 'GET /api/notifications/0177');
    expect(sessionStorage.getItem('channel')).toBe('line_campaign');
    expect(sessionStorage.getItem('appDeviceId')).toBe(deviceId);
    expect(document.cookie).toContain('workplace=12345678');
    expect(document.cookie).not.toContain('invitation='); // 7 characters: too long
  });
});

describe('/term pre-application check', () => {
  let user: UserEvent;
  let props: ReturnType<typeof screenProps>;

  beforeEach(async () => {
    pretendUserAgent(userAgents.iPhoneSafari);
    const { calls } = fakeApi({});
    user = userEvent.setup();
    props = renderTerm();
    await checksDone(calls, 'GET /api/notifications/0177');
  });

  it('starts with the first question only and a disabled next button', () => {
    expect(question(Q.first)).toBeTruthy();
    expect(screen.queryByRole('group', { name: Q.document })).toBeNull();
    expect(screen.getByRole('button', { name: '次へ' })).toHaveProperty('disabled', true);
    expect(within(question(Q.first)).getByText('必須')).toBeTruthy();
  });

  it('reveals the next question on a positive answer and moves focus to it', async () => {
    await choose(user, Q.first, 'はい');
    const next = question(Q.document);
    expect(document.activeElement).toBe(next);
  });

  const gates: Array<{ name: string; answersBefore: number; gate: RegExp; no: string; message: RegExp | string; branchLink: boolean }> = [
    { name: 'not the first account', answersBefore: 0, gate: Q.first, no: 'いいえ', message: /すでに福岡銀行の口座をお持ちの方/, branchLink: true },
    { name: 'no identity document', answersBefore: 1, gate: Q.document, no: 'いいえ', message: /本人確認書類をお持ちでない方/, branchLink: true },
    { name: 'under 18', answersBefore: 2, gate: Q.adult, no: 'いいえ', message: /満18歳未満の方は/, branchLink: false },
    { name: 'nationality, residence or PEP', answersBefore: 3, gate: Q.eligibility, no: 'いいえ', message: /上記のいずれかに該当しない方/, branchLink: false },
    { name: 'regulations disagreed', answersBefore: 4, gate: Q.regulations, no: '同意しない', message: messages.regulationsDisagreed, branchLink: false },
  ];
  const order = [Q.first, Q.document, Q.adult, Q.eligibility, Q.regulations, Q.myNumber];
  const positive = ['はい', 'はい', 'はい', 'はい', '同意する'];

  it.each(gates)('blocks on "$name" and hides the later questions', async ({ answersBefore, gate, no, message, branchLink }) => {
    for (let index = 0; index < answersBefore; index += 1) {
      await choose(user, order[index] as RegExp, positive[index] as string);
    }
    await choose(user, gate, no);

    const alert = screen.getByRole('alert');
    expect(within(alert).getByText(message)).toBeTruthy();
    const link = within(alert).queryByRole('link', { name: /来店予約/ });
    if (branchLink) {
      expect(link?.getAttribute('href')).toBe('https://www.fukuokabank.co.jp/tenpo/raiten_yoyaku/');
      expect(link?.getAttribute('target')).toBe('_blank');
    } else {
      expect(link).toBeNull();
    }
    for (const later of order.slice(answersBefore + 1)) {
      expect(screen.queryByRole('group', { name: later })).toBeNull();
    }
    expect(screen.getByRole('button', { name: '次へ' })).toHaveProperty('disabled', true);

    // Changing the answer back lifts the block.
    await choose(user, gate, positive[answersBefore] as string);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(question(order[answersBefore + 1] as RegExp)).toBeTruthy();
  });

  it('enables 次へ only when everything is positive and both boxes are ticked, then sends NEXT', async () => {
    const next = () => screen.getByRole('button', { name: '次へ' });
    await answerAllGates(user);
    expect(next()).toHaveProperty('disabled', true);
    expect(screen.queryByRole('group', { name: Q.passbook })).toBeNull();

    await choose(user, Q.myNumber, '紐づけない');
    const passbook = question(Q.passbook);
    expect(within(passbook).getByText(/1,100円（税込）/)).toBeTruthy();
    expect(screen.queryByRole('group', { name: Q.seal })).toBeNull();
    expect(next()).toHaveProperty('disabled', true);

    await user.click(within(passbook).getByRole('checkbox', { name: '通帳が発行されないことを確認しました' }));
    const seal = question(Q.seal);
    expect(document.activeElement).toBe(seal);
    expect(next()).toHaveProperty('disabled', true);

    const sealBox = within(seal).getByRole('checkbox', { name: /印鑑の登録を行わないことを確認しました/ });
    await user.click(sealBox);
    expect(next()).toHaveProperty('disabled', false);

    // Unticking takes it back.
    await user.click(sealBox);
    expect(next()).toHaveProperty('disabled', true);
    await user.click(sealBox);

    // A later change to an earlier gate disables it again.
    await choose(user, Q.adult, 'いいえ');
    expect(next()).toHaveProperty('disabled', true);
    await choose(user, Q.adult, 'はい');
    expect(next()).toHaveProperty('disabled', false);

    expect(props.send).not.toHaveBeenCalled();
    await user.click(next());
    expect(props.send).toHaveBeenCalledTimes(1);
    expect(props.send).toHaveBeenCalledWith({ type: 'NEXT' });
    expect(sessionStorage.getItem('bankCode')).toBeNull(); // the flow's action stores it, not the screen
  });

  it('accepts either My Number choice', async () => {
    await answerAllGates(user);
    await choose(user, Q.myNumber, 'マイナンバーを口座に紐づける（別途お手続き）');
    expect(question(Q.passbook)).toBeTruthy();
    const guide = within(question(Q.myNumber)).getByRole('link', { name: /マイナンバーのお届けについて/ });
    expect(guide.getAttribute('href')).toBe('https://www.fukuokabank.co.jp/kojin/mynumber/todokede.html');
  });

  it('shows the regulations, the other documents and the PEP guide as new-window links', async () => {
    await choose(user, Q.first, 'はい');
    await choose(user, Q.document, 'はい');
    await choose(user, Q.adult, 'はい');
    const pep = within(question(Q.eligibility)).getByRole('link', { name: /外国PEPsについて/ });
    expect(pep.getAttribute('href')).toBe('https://www.fukuokabank.co.jp/kojin/kouza/gaikoku_peps.html');
    await choose(user, Q.eligibility, 'はい');

    const links = within(question(Q.regulations)).getAllByRole('link');
    expect(links.map((link) => link.textContent?.replace('（新しいウィンドウで開きます）', ''))).toEqual([
      'Web口座開設規定',
      '個人情報の利用目的',
      '反社会的勢力ではないことの表明・確約',
      '総合口座取引規定・普通預金規定',
      'キャッシュカード規定・デビットカード取引規定',
      'ダイレクトバンキングサービス利用規定',
      'My Bank Plus（マイバンクプラス）利用規定',
      '未利用口座管理手数料のご案内',
    ]);
    for (const link of links) {
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    }
  });
});

describe('/term per bank', () => {
  it('links the cash card rules of bank 0587 from its own data', async () => {
    pretendUserAgent(userAgents.iPhoneSafari);
    const { calls } = fakeApi({});
    const user = userEvent.setup();
    renderTerm('/term', screenProps('/term', { settings: bank0587Settings() }));
    await checksDone(calls, 'GET /api/notifications/0587');
    await choose(user, Q.first, 'はい');
    await choose(user, Q.document, 'はい');
    await choose(user, Q.adult, 'はい');
    await choose(user, Q.eligibility, 'はい');
    const cashCard = within(question(Q.regulations)).getByRole('link', { name: /キャッシュカード規定/ });
    expect(cashCard.getAttribute('href')).toBe('https://www.kumamotobank.co.jp/kitei/kumamoto/pdf/cashcard_debitcard_kitei_kumamoto.pdf');
    expect(screen.getByRole('img', { name: /熊本銀行/ }).getAttribute('src')).toBe('/bank/top');
  });
});
