import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, toPromise, type AnyMachineSnapshot } from 'xstate';
import { FlowRouter } from '../../src/client/runtime/FlowRouter';
import { screenRegistry } from '../../src/client/screens/registry';
import { createImplementations } from '../../src/client/runtime/implementations';
import { machineAt, topLevelState } from '../../src/client/runtime/machine';
import Complete, { COMPLETE_WITHOUT_NUMBER } from '../../src/client/screens/Complete';
import EkycCallback from '../../src/client/screens/EkycCallback';
import EkycError from '../../src/client/screens/EkycError';
import EkycPreparation, { GENERAL_DOCUMENTS } from '../../src/client/screens/EkycPreparation';
import Redirect from '../../src/client/screens/Redirect';
import SupplementError from '../../src/client/screens/SupplementError';
import { SYSTEM_ERROR_TEXT } from '../../src/client/screens/SystemError';
import { messages } from '../../src/domain/messages';
import { bank0587Settings, childFlow, fakeApi, generalFlow, inRouter, json, screenProps, settingsFor, requestOf, snapshotTaking } from './fixtures';


/** A snapshot that is in `stateId.sub` (what the runtime hands over while the actor runs). */
function snapshotIn(stateId: string, sub: string): AnyMachineSnapshot {
  const matches = (value: unknown) =>
    value !== null && typeof value === 'object' && (value as Record<string, unknown>)[stateId] === sub;
  // Only `matches` and `can` are read by the screen; every method's guard holds.
  return snapshotTaking(() => true, { value: { [stateId]: sub }, matches });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('/ekyc-preparation', () => {
  it('lists the accepted identity documents and sends START_EKYC', async () => {
    const props = screenProps('/ekyc-preparation', { snapshot: snapshotIn('ekycPreparation', 'ready') });
    render(<EkycPreparation {...props} />);
    for (const name of GENERAL_DOCUMENTS) expect(screen.getByText(name)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'これからの流れ' })).toBeTruthy();
    const button = screen.getByRole('button', { name: '書類の撮影で本人確認へ進む' }) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    await userEvent.setup().click(button);
    expect(props.send).toHaveBeenCalledWith({ type: 'START_EKYC' });
  });

  it('offers the two methods of the day in the bank\'s order, each with its own button', async () => {
    const props = screenProps('/ekyc-preparation', { snapshot: snapshotIn('ekycPreparation', 'ready') });
    render(<EkycPreparation {...props} />);
    expect(screen.getByText('本人確認は、次の2つの方法からお選びいただけます。')).toBeTruthy();
    const headings = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(headings.indexOf('本人確認書類とお顔を撮影する')).toBeLessThan(headings.indexOf('マイナンバーカードを読み取る'));
    expect(screen.getByText(/署名用電子証明書の暗証番号/)).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'マイナンバーカードで本人確認へ進む' }));
    expect(props.send).toHaveBeenCalledWith({ type: 'START_JPKI' });
  });

  it('shows only JPKI when the flow refuses the photo-ID start (from 2027-04-01), and a notice when it refuses both', () => {
    const jpkiOnly = screenProps('/ekyc-preparation', { snapshot: snapshotTaking((type) => type === 'START_JPKI', { matches: () => false }) });
    const { unmount } = render(<EkycPreparation {...jpkiOnly} />);
    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual(['マイナンバーカードで本人確認へ進む']);
    expect(screen.queryByText(/2つの方法/)).toBeNull();
    expect(screen.queryByText('運転免許証')).toBeNull();
    unmount();
    render(<EkycPreparation {...screenProps('/ekyc-preparation', { snapshot: snapshotTaking(() => false, { matches: () => false }) })} />);
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('現在、Webでの本人確認を受け付けておりません。');
  });

  it('shows a spinner and cannot be pressed again while the identity check is being started', () => {
    for (const sub of ['starting', 'leaving']) {
      const props = screenProps('/ekyc-preparation', { snapshot: snapshotIn('ekycPreparation', sub) });
      const { unmount } = render(<EkycPreparation {...props} />);
      const button = screen.getByRole('button', { name: /書類の撮影で本人確認へ進む/ }) as HTMLButtonElement;
      expect(button.disabled).toBe(true);
      expect(button.getAttribute('aria-busy')).toBe('true');
      expect((screen.getByRole('button', { name: /マイナンバーカードで本人確認へ進む/ }) as HTMLButtonElement).disabled).toBe(true);
      expect(screen.getByRole('status').textContent).toContain('本人確認サービスへ移動しています');
      unmount();
    }
  });

  it('tells the parent of a child application what to prepare', () => {
    const props = screenProps('/child/parent-ekyc-preparation', { snapshot: snapshotIn('parentEkycPreparation', 'ready') });
    render(<EkycPreparation {...props} />);
    expect(screen.getByText('親権者さまのマイナンバーカード（個人番号カード）')).toBeTruthy();
    expect(screen.getByText(/ケースから取り出して/)).toBeTruthy();
    expect(screen.getByText(/不鮮明な場合/)).toBeTruthy();
    expect(screen.queryByText('運転免許証')).toBeNull();
  });
});

/** The server's eKYC routes for the poller: each status call answered by `answer`, and counted. */
function stubEkycRoutes(answer: () => Response | Promise<Response>): { count: () => number } {
  let statuses = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const { route } = requestOf(input, init);
      if (route === 'POST /api/ekyc/status') {
        statuses += 1;
        return answer();
      }
      // No GET /api/ekyc: the approved status says whether the address document is asked for.
      return json({ message: 'not found' }, 404);
    }),
  );
  return { count: () => statuses };
}

describe('/ekyc-callback', () => {
  it('shows the tries the page’s poller emits as a progress bar until the result is in', async () => {
    // The page's own actor as the runtime starts it (the real poller at a 1 ms interval),
    // against a status the test releases; the screen reads the poller through its snapshot.
    const pending: Array<(response: Response) => void> = [];
    const statuses = stubEkycRoutes(() => new Promise<Response>((resolve) => pending.push(resolve)));
    const implementations = createImplementations({ ...settingsFor(), ekycPollIntervalMs: 1 });
    const actor = createActor(machineAt(generalFlow, 'ekycCallback', implementations));
    const left = new Promise<string | undefined>((resolve) => {
      actor.subscribe((next) => {
        const stateId = topLevelState(next.value);
        if (stateId !== 'ekycCallback') resolve(stateId);
      });
    });
    actor.start();
    render(<EkycCallback {...screenProps('/ekyc-callback', { snapshot: actor.getSnapshot() })} />);
    const bar = screen.getByRole('progressbar', { name: '本人確認の確認状況' });
    expect(screen.getByText('本人確認書類を確認しています')).toBeTruthy();
    expect(screen.getByText(/このページを閉じたり/)).toBeTruthy();
    expect(bar.getAttribute('aria-valuenow')).toBe('0');
    expect(bar.getAttribute('aria-valuemax')).toBe('12');

    const answer = async (status: number, extra: Record<string, unknown> = {}) => {
      await waitFor(() => expect(pending.length).toBeGreaterThan(0));
      await act(async () => {
        pending.shift()?.(json({ status, ...extra }));
      });
    };
    await answer(1);
    await waitFor(() => expect(screen.getByText('確認中です（1/12）')).toBeTruthy());
    expect(bar.getAttribute('aria-valuenow')).toBe('1');

    // A poller that is not this page's child is not heard (no listener shared through the module).
    await waitFor(() => expect(pending.length).toBe(1));
    const stranger = createActor(implementations.actors.pollEkycStatus, { input: { intervalMs: 5000, maxTries: 1 } });
    const strangerDone = toPromise(stranger);
    stranger.start();
    await waitFor(() => expect(pending.length).toBe(2));
    await act(async () => {
      pending.splice(1, 1)[0]?.(json({ status: 4 }));
      await strangerDone;
    });
    expect(screen.getByText('確認中です（1/12）')).toBeTruthy();

    await answer(2);
    await answer(2);
    await waitFor(() => expect(screen.getByText('確認中です（3/12）')).toBeTruthy());
    expect(bar.getAttribute('aria-valuenow')).toBe('3');
    await answer(4, { supplement: true });
    await expect(left).resolves.toBe('supplement');
    expect(statuses.count()).toBe(5);
  });
});

describe('the eKYC poller', () => {
  it('stops asking once its actor stops (the applicant left the page)', async () => {
    const statuses = stubEkycRoutes(() => json({ status: 1 }));
    const implementations = createImplementations({ ...settingsFor(), ekycPollIntervalMs: 5 });
    const poller = createActor(implementations.actors.pollEkycStatus, { input: { intervalMs: 5000, maxTries: 12 } });
    poller.start();
    await waitFor(() => expect(statuses.count()).toBeGreaterThanOrEqual(2));
    poller.stop();
    const asked = statuses.count();
    await new Promise((resolve) => setTimeout(resolve, 80));
    // Without the abort it would have asked about 16 more times in 80 ms (every 5 ms, up to 12 tries).
    expect(statuses.count()).toBe(asked);
  });
});

describe('/redirect', () => {
  it('shows that the application is being accepted', () => {
    render(<Redirect {...screenProps('/redirect')} />);
    expect(screen.getByRole('status').textContent).toContain('このページを閉じずにお待ちください');
  });
});

describe('/child/redirect under the flow runtime', () => {
  const arrival = { applicationNumber: '0177-261122-000042', applicationCompletedAt: '2026-11-22T01:15:00.000Z' };

  /** The app as main.tsx starts it, opened at /child/redirect as the callback page navigates there. */
  function arriveAtChildRedirect() {
    // React Router keeps the navigation state under `usr` of the history entry.
    window.history.replaceState({ usr: { from: '/child/ekyc-callback' }, key: 'child-redirect', idx: 0 }, '', '/child/redirect');
    // jsdom has no scrolling; the runtime scrolls to the top on every path change.
    vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    render(<FlowRouter settings={settingsFor()} models={[generalFlow, childFlow]} screens={screenRegistry} />);
  }

  afterEach(() => {
    window.history.replaceState(null, '', '/');
  });

  it('sends a failed completion to /error, not /child/error (spec section 8)', async () => {
    const { calls } = fakeApi({ 'POST /api/application-complete': () => json({ message: 'boom' }, 500) });
    arriveAtChildRedirect();
    await waitFor(() => expect(window.location.pathname).toBe('/error'));
    expect(await screen.findByText(SYSTEM_ERROR_TEXT)).toBeTruthy();
    expect(calls.filter((call) => call === 'POST /api/application-complete')).toHaveLength(1);
  });

  it('opens /child/complete with the application number once the completion succeeds', async () => {
    sessionStorage.setItem('authenticationToken', 'token-of-the-application');
    const { calls } = fakeApi({ 'POST /api/application-complete': () => json(arrival) });
    arriveAtChildRedirect();
    expect(await screen.findByText('0177-261122-000042')).toBeTruthy();
    expect(window.location.pathname).toBe('/child/complete');
    expect(calls.filter((call) => call === 'POST /api/application-complete')).toHaveLength(1);
    // /child/complete clears the application's traces on display.
    expect(sessionStorage.getItem('authenticationToken')).toBeNull();
  });
});

describe('/ekyc-callback under the flow runtime', () => {
  afterEach(() => {
    window.history.replaceState(null, '', '/');
  });

  /** The app opened at /ekyc-callback (an entry page: the provider sends the browser there), the status answered by `answer`. */
  function arriveAtCallback(answer: Record<string, unknown>) {
    fakeApi({ 'POST /api/ekyc/status': () => json(answer) });
    window.history.replaceState(null, '', '/ekyc-callback');
    vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    render(<FlowRouter settings={{ ...settingsFor(), ekycPollIntervalMs: 1 }} models={[generalFlow, childFlow]} screens={screenRegistry} />);
  }

  it('leads a mismatch to the error page, which names the items that differ', async () => {
    arriveAtCallback({ status: 9, reason: 'mismatch', fields: ['name', 'address'] });
    await waitFor(() => expect(window.location.pathname).toBe('/ekyc-error'));
    expect((await screen.findByRole('alert')).textContent).toBe('マイナンバーカードの情報と、ご入力いただいたお客さま情報（氏名・住所）が一致しませんでした。');
  });

  it('leads any other failure to the generic message', async () => {
    arriveAtCallback({ status: 8 });
    await waitFor(() => expect(window.location.pathname).toBe('/ekyc-error'));
    expect((await screen.findByRole('alert')).textContent).toBe(messages.ekycError);
  });
});

describe('/complete', () => {
  const arrivalData = { applicationNumber: '0177-261122-000042', applicationCompletedAt: '2026-11-22T01:15:00.000Z' };

  it('shows the number, the time in Japan time, what happens next and the contact desk', () => {
    const props = screenProps('/complete', { arrivalData });
    render(<Complete {...props} />);
    expect(screen.getByText('0177-261122-000042')).toBeTruthy();
    expect(screen.getByText('2026年11月22日 10:15')).toBeTruthy();
    expect(screen.getByText(/お申込み完了のメールをお送りしました/)).toBeTruthy();
    expect(screen.getByText(/審査の結果は、郵送でお知らせします/)).toBeTruthy();
    expect(screen.getByText(/1～2週間程度/)).toBeTruthy();
    expect(screen.getByText(/自動的に取り消し/)).toBeTruthy();

    const contact = props.settings.bank.CONTACT_INFORMATION;
    expect(screen.getByText(contact.name)).toBeTruthy();
    const tel = screen.getByRole('link', { name: new RegExp(contact.phoneNumber) });
    expect(tel.getAttribute('href')).toBe(`tel:${contact.phoneNumber.replace(/-/g, '')}`);
    expect(screen.getByText(`受付時間：${contact.receptionHours}`)).toBeTruthy();

    const questionnaire = screen.getByRole('link', { name: /アンケートに回答する/ });
    expect(questionnaire.getAttribute('href')).toBe(props.settings.bank.links.questionnaire);
    expect(questionnaire.getAttribute('target')).toBe('_blank');
    const homepage = screen.getByRole('link', { name: `${props.settings.bank.NAME}のホームページへ` });
    expect(homepage.getAttribute('href')).toBe(props.settings.bank.links.homepage);
    expect(screen.queryByText(COMPLETE_WITHOUT_NUMBER)).toBeNull();
  });

  it('uses the bank’s own contact desk and links', () => {
    const settings = bank0587Settings();
    render(<Complete {...screenProps('/complete', { arrivalData, settings })} />);
    expect(screen.getByText(settings.bank.CONTACT_INFORMATION.name)).toBeTruthy();
    expect(screen.getByText(`受付時間：${settings.bank.CONTACT_INFORMATION.receptionHours}`)).toBeTruthy();
    expect(screen.getByRole('link', { name: /アンケートに回答する/ }).getAttribute('href')).toBe(settings.bank.links.questionnaire);
  });

  it('points to the completion mail when the number is not at hand (opened anew)', () => {
    render(<Complete {...screenProps('/complete')} />);
    expect(screen.getByText(COMPLETE_WITHOUT_NUMBER)).toBeTruthy();
    expect(screen.queryByText('受付番号')).toBeNull();
    expect(screen.getByRole('link', { name: /アンケートに回答する/ })).toBeTruthy();
  });
});

describe('/ekyc-error and /supplement-error', () => {
  it('says the identity check failed, word for word, and retries', async () => {
    const props = screenProps('/ekyc-error');
    render(inRouter('/ekyc-error', <EkycError {...props} />));
    expect(screen.getByRole('alert').textContent).toBe(messages.ekycError);
    await userEvent.setup().click(screen.getByRole('button', { name: '本人確認をやり直す' }));
    expect(props.send).toHaveBeenCalledWith({ type: 'RETRY' });
  });

  it('names the items that differ from the card and what to do, when the check found a mismatch', async () => {
    const props = screenProps('/ekyc-error', { arrivalData: { reason: 'mismatch', fields: ['address'] } });
    render(inRouter('/ekyc-error', <EkycError {...props} />));
    expect(screen.getByRole('alert').textContent).toBe('マイナンバーカードの情報と、ご入力いただいたお客さま情報（住所）が一致しませんでした。');
    expect(screen.getByText(/市区町村の窓口でマイナンバーカードの記載内容を変更/)).toBeTruthy();
    expect(screen.getByText(/正しい内容で最初からお申込みください/)).toBeTruthy();
    expect(screen.queryByText(messages.ekycError)).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: '本人確認をやり直す' }));
    expect(props.send).toHaveBeenCalledWith({ type: 'RETRY' });
  });

  it('speaks of the parent in the child flow, and of the card changing only when name or address differ', () => {
    const child = render(inRouter('/child/ekyc-error', <EkycError {...screenProps('/child/ekyc-error', { arrivalData: { reason: 'mismatch', fields: ['name', 'birthday'] } })} />));
    expect(screen.getByRole('alert').textContent).toBe('マイナンバーカードの情報と、ご入力いただいた親権者さまの情報（氏名・生年月日）が一致しませんでした。');
    expect(screen.getByText(messages.ekycMismatchCardChanged)).toBeTruthy();
    child.unmount();
    render(inRouter('/ekyc-error', <EkycError {...screenProps('/ekyc-error', { arrivalData: { reason: 'mismatch', fields: ['birthday'] } })} />));
    expect(screen.getByRole('alert').textContent).toBe('マイナンバーカードの情報と、ご入力いただいたお客さま情報（生年月日）が一致しませんでした。');
    expect(screen.queryByText(messages.ekycMismatchCardChanged)).toBeNull();
    expect(screen.getByText(messages.ekycMismatchEntry)).toBeTruthy();
  });

  it('keeps the generic message for anything it cannot read as a mismatch', () => {
    for (const arrivalData of [{ reason: 'mismatch', fields: [] }, { reason: 'other', fields: ['name'] }, { reason: 'mismatch', fields: ['nickname'] }]) {
      const { unmount } = render(inRouter('/ekyc-error', <EkycError {...screenProps('/ekyc-error', { arrivalData })} />));
      expect(screen.getByRole('alert').textContent).toBe(messages.ekycError);
      unmount();
    }
  });

  it('says the upload failed, word for word, and returns to the upload', async () => {
    const props = screenProps('/supplement-error');
    render(inRouter('/supplement-error', <SupplementError {...props} />));
    expect(screen.getByRole('alert').textContent).toBe(messages.supplementUploadError);
    await userEvent.setup().click(screen.getByRole('button', { name: 'もう一度アップロードする' }));
    expect(props.send).toHaveBeenCalledWith({ type: 'RETRY' });
  });
});
