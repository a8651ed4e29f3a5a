import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ChildBeforeCheck, { CHILD_APPLICATIONS_CLOSED } from '../../src/client/screens/ChildBeforeCheck';
import ChildTerm from '../../src/client/screens/ChildTerm';
import type { ClientSettings } from '../../src/domain/bank/types';
import { messages } from '../../src/domain/messages';
import { bank0181Settings, bank0587Settings, fakeApi, inRouter, json, pretendUserAgent, screenProps, settingsFor, snapshotTaking, userAgents } from './fixtures';

/** The child flow as the runtime reads it (the flow lint vouches for the JSON shape). */
const notFound = () => json({ message: 'not found' }, 404);

/** A 404 answer that tells when the client has read its body (the last step that is not promise work). */
function observedNotFound(): { handler: () => Response; bodyRead: Promise<void> } {
  let markRead: () => void = () => undefined;
  const bodyRead = new Promise<void>((resolve) => {
    markRead = resolve;
  });
  const handler = () => {
    const response = notFound();
    const readText = response.text.bind(response);
    response.text = async () => {
      const body = await readText();
      markRead();
      return body;
    };
    return response;
  };
  return { handler, bodyRead };
}

function renderBeforeCheck(url = '/child/before-check', settings?: ClientSettings) {
  const props = screenProps('/child/before-check', settings ? { settings } : {});
  render(inRouter(url, <ChildBeforeCheck {...props} />));
  return props;
}

function renderTerm() {
  const props = screenProps('/child/term');
  render(inRouter('/child/term', <ChildTerm {...props} />));
  return props;
}

const nextButton = () => screen.getByRole('button', { name: '次へ' });

beforeEach(() => {
  sessionStorage.clear();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('/child/before-check', () => {
  it('enables next only when both boxes are ticked, then sends NEXT', async () => {
    pretendUserAgent(userAgents.iPhoneSafari);
    fakeApi({ 'GET /api/maintenance': notFound, 'GET /api/notifications/0177': notFound });
    const { send } = renderBeforeCheck();
    const user = userEvent.setup();

    expect(screen.getByRole('img', { name: /福岡銀行/ }).getAttribute('src')).toBe('/bank/top');
    expect(screen.getByText(/18歳未満のお子さまの代理人としてお申込みいただくサービスです/)).toBeTruthy();
    expect(screen.getByText(/簡易書留/)).toBeTruthy();
    expect(screen.getByText(/自動的に取り消し/)).toBeTruthy();
    expect(screen.getByText(/2024年12月2日以降/)).toBeTruthy();
    expect(screen.getByText(/母子健康手帳/)).toBeTruthy();
    expect(screen.getByText('運転経歴証明書')).toBeTruthy();
    const search = screen.getByRole('link', { name: /店舗・ATM検索/ });
    expect(search.getAttribute('href')).toBe('https://www.fukuokabank.co.jp/tenpo/raiten_yoyaku/');

    expect((nextButton() as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByLabelText('上記の内容を確認しました'));
    expect((nextButton() as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByLabelText('必要書類を確認しました'));
    expect((nextButton() as HTMLButtonElement).disabled).toBe(false);
    await user.click(screen.getByLabelText('上記の内容を確認しました'));
    expect((nextButton() as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByLabelText('上記の内容を確認しました'));
    await user.click(nextButton());
    expect(send).toHaveBeenCalledWith({ type: 'NEXT' });
    // The child flow has no BACK from here: no back button.
    expect(screen.queryByRole('button', { name: '戻る' })).toBeNull();
  });

  it.each([
    ['0177', settingsFor(), '福岡県・山口県・佐賀県にお住まいの方、またはお住まいの市区町村に福岡銀行の店舗がある方'],
    ['0587', bank0587Settings(), '熊本県・福岡県・鹿児島県にお住まいの方、またはお住まいの市区町村に熊本銀行の店舗がある方'],
    ['0181', bank0181Settings(), '長崎県・福岡県・佐賀県にお住まいの方、またはお住まいの市区町村に十八親和銀行の店舗がある方'],
  ])('names the home prefecture and the neighbouring prefectures of bank %s', (_code, settings, area) => {
    pretendUserAgent(userAgents.iPhoneSafari);
    fakeApi({ 'GET /api/maintenance': notFound });
    renderBeforeCheck('/child/before-check', settings);
    expect(screen.getByText(`お子さまが${area}がお申込みいただけます。`)).toBeTruthy();
  });

  it('says the bank takes no child application online when the flow refuses NEXT (no method for the child on the day)', () => {
    pretendUserAgent(userAgents.iPhoneSafari);
    fakeApi({ 'GET /api/maintenance': notFound, 'GET /api/notifications/0177': notFound });
    const props = screenProps('/child/before-check', { snapshot: snapshotTaking(() => false) });
    render(inRouter('/child/before-check', <ChildBeforeCheck {...props} />));
    expect(screen.getByRole('status').textContent).toBe(CHILD_APPLICATIONS_CLOSED);
    expect(screen.queryByRole('button', { name: '次へ' })).toBeNull();
  });

  it('keeps the invitation code in session storage and records the channel; drops values over the limits', async () => {
    pretendUserAgent(userAgents.iPhoneSafari);
    fakeApi({ 'GET /api/maintenance': notFound });
    renderBeforeCheck('/child/before-check?invitation=INV001&channel=line-ad');
    await waitFor(() => expect(sessionStorage.getItem('invitation')).toBe('INV001'));
    expect(sessionStorage.getItem('channel')).toBe('line-ad');
  });

  it('ignores an invitation over 6 characters and a channel over 20', async () => {
    pretendUserAgent(userAgents.iPhoneSafari);
    fakeApi({ 'GET /api/maintenance': notFound });
    renderBeforeCheck(`/child/before-check?invitation=INV0012&channel=${'c'.repeat(21)}`);
    await screen.findByText(/上記の内容を確認しました/);
    expect(sessionStorage.getItem('invitation')).toBeNull();
    expect(sessionStorage.getItem('channel')).toBeNull();
  });

  it('shows the maintenance modal first when a window is active, without loading notifications', async () => {
    pretendUserAgent(userAgents.iPhoneLine);
    const now = Date.now();
    const { calls } = fakeApi({
      'GET /api/maintenance': () => json({ startedAt: new Date(now - 60_000).toISOString(), endedAt: new Date(now + 3_600_000).toISOString() }),
      'GET /api/notifications/0177': () => json({ notificationList: [{ contents: 'お知らせ' }] }),
    });
    renderBeforeCheck();
    const dialog = await screen.findByRole('dialog', { name: 'メンテナンス中' });
    expect(within(dialog).getByRole('link', { name: 'サービス紹介ページへ戻る' })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'ご注意' })).toBeNull();
    expect(calls).not.toContain('GET /api/notifications/0177');
  });

  it('shows the bank notifications when there is no maintenance and the browser is supported', async () => {
    pretendUserAgent(userAgents.iPhoneSafari);
    fakeApi({
      'GET /api/maintenance': notFound,
      'GET /api/notifications/0177': () => json({ notificationList: [{ contents: '年末年始のお手続きについて' }] }),
    });
    renderBeforeCheck();
    const dialog = await screen.findByRole('dialog', { name: '重要なお知らせ' });
    expect(within(dialog).getByText('年末年始のお手続きについて')).toBeTruthy();
  });

  it('goes to /child/error when the maintenance call fails with 500', async () => {
    pretendUserAgent(userAgents.iPhoneSafari);
    fakeApi({ 'GET /api/maintenance': () => json({ message: 'boom' }, 500) });
    renderBeforeCheck();
    expect((await screen.findByTestId('location')).textContent).toBe('/child/error');
  });

  it('warns an in-app browser that it cannot be used, with no way to close the warning, and loads no notifications', async () => {
    pretendUserAgent(userAgents.iPhoneLine);
    const { calls } = fakeApi({
      'GET /api/maintenance': notFound,
      'GET /api/notifications/0177': () => json({ notificationList: [{ contents: 'お知らせ' }] }),
    });
    renderBeforeCheck();
    const dialog = await screen.findByRole('dialog', { name: 'ご注意' });
    expect(within(dialog).getByText(/アプリ内のブラウザでは、本サービスをご利用いただけません/)).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'サービス紹介ページへ戻る' }).getAttribute('href')).toBe(
      settingsFor().bank.links.serviceIntroduction,
    );
    expect(within(dialog).queryByRole('button', { name: '閉じる' })).toBeNull();
    expect(calls).toEqual(['GET /api/maintenance']);
  });

  it('warns a device that is not a phone with a dialog that can be closed, and loads no notifications', async () => {
    pretendUserAgent(userAgents.desktopChrome);
    const { calls } = fakeApi({
      'GET /api/maintenance': notFound,
      'GET /api/notifications/0177': () => json({ notificationList: [{ contents: 'お知らせ' }] }),
    });
    renderBeforeCheck();
    const dialog = await screen.findByRole('dialog', { name: 'ご注意' });
    expect(within(dialog).getByText('本サービスはスマートフォン専用のサービスです。')).toBeTruthy();
    expect(calls).toEqual(['GET /api/maintenance']);
    await userEvent.setup().click(within(dialog).getByRole('button', { name: '閉じる' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByLabelText('上記の内容を確認しました')).toBeTruthy();
  });

  it('goes to /child/error when the notifications call fails with 500', async () => {
    pretendUserAgent(userAgents.iPhoneSafari);
    fakeApi({ 'GET /api/maintenance': notFound, 'GET /api/notifications/0177': () => json({ message: 'boom' }, 500) });
    renderBeforeCheck();
    expect((await screen.findByTestId('location')).textContent).toBe('/child/error');
  });

  it('treats a 404 on notifications as none: no dialog and no error page', async () => {
    pretendUserAgent(userAgents.iPhoneSafari);
    const notifications = observedNotFound();
    fakeApi({ 'GET /api/maintenance': notFound, 'GET /api/notifications/0177': notifications.handler });
    renderBeforeCheck();
    // Once the 404's body is read, the rest of the check is promise work: a macrotask later it has settled.
    await act(async () => {
      await notifications.bodyRead;
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByTestId('location')).toBeNull();
    expect(screen.getByLabelText('上記の内容を確認しました')).toBeTruthy();
  });
});

describe('/child/term', () => {
  const group = (name: RegExp) => screen.getByRole('group', { name });
  const Q = {
    national: /Q1\..*次のすべてに該当/,
    regulations: /Q2\..*Web口座開設規定に同意/,
    myNumber: /Q3\..*マイナンバー/,
    passbook: /Q4\..*通帳の発行/,
    seal: /Q5\..*印鑑の登録/,
  };
  async function choose(user: UserEvent, name: RegExp, label: string) {
    await user.click(within(group(name)).getByRole('radio', { name: label }));
  }

  it('reveals the sections in the order of the spec and enables next at the end', async () => {
    const { send } = renderTerm();
    const user = userEvent.setup();
    expect(within(group(Q.national)).getByRole('link', { name: /外国PEPsについて/ })).toBeTruthy();
    expect(screen.queryByRole('group', { name: Q.regulations })).toBeNull();
    expect(screen.queryByRole('group', { name: Q.myNumber })).toBeNull();
    expect((nextButton() as HTMLButtonElement).disabled).toBe(true);

    await choose(user, Q.national, 'はい');
    // Each newly revealed section takes the focus, so a screen reader announces it.
    expect(document.activeElement).toBe(group(Q.regulations));
    expect(group(Q.myNumber)).toBeTruthy();
    expect(screen.queryByRole('group', { name: Q.passbook })).toBeNull();

    await choose(user, Q.regulations, '同意する');
    expect(screen.queryByRole('group', { name: Q.passbook })).toBeNull();
    await choose(user, Q.myNumber, '同意する');
    expect(group(Q.passbook)).toBeTruthy();
    expect(screen.queryByRole('group', { name: Q.seal })).toBeNull();

    await user.click(screen.getByLabelText('通帳が発行されないことを確認しました'));
    expect(document.activeElement).toBe(group(Q.seal));
    expect((nextButton() as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByLabelText('印鑑の登録を行わないことを確認しました'));
    expect((nextButton() as HTMLButtonElement).disabled).toBe(false);
    await user.click(nextButton());
    expect(send).toHaveBeenCalledWith({ type: 'NEXT' });
    // child/term has no BACK in the flow.
    expect(screen.queryByRole('button', { name: '戻る' })).toBeNull();
  });

  it('a "no" to the national conditions shows the not-eligible message with the store search and hides the rest', async () => {
    renderTerm();
    const user = userEvent.setup();
    await choose(user, Q.national, 'いいえ');
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText(messages.childNotEligible)).toBeTruthy();
    expect(within(alert).getByRole('link', { name: /店舗・ATM検索/ }).getAttribute('href')).toBe(
      'https://www.fukuokabank.co.jp/tenpo/raiten_yoyaku/',
    );
    expect(screen.queryByRole('group', { name: Q.regulations })).toBeNull();
    expect((nextButton() as HTMLButtonElement).disabled).toBe(true);
  });

  it('a disagreement shows the regulations message and keeps the later sections hidden', async () => {
    renderTerm();
    const user = userEvent.setup();
    await choose(user, Q.national, 'はい');
    await choose(user, Q.regulations, '同意しない');
    await choose(user, Q.myNumber, '同意する');
    expect(within(screen.getByRole('alert')).getByText(messages.regulationsDisagreed)).toBeTruthy();
    expect(screen.queryByRole('group', { name: Q.passbook })).toBeNull();
    expect((nextButton() as HTMLButtonElement).disabled).toBe(true);
  });
});
