import { expect, test, type Browser, type Page } from '@playwright/test';
import { act, chooseProviderOutcome, openJourney, reachPersonal, stepCounterOf, walkTo, type Journey } from './drivers';
import { childApplicants, generalApplicants } from './drivers/applicants';
import { bankUrl, byLabel, expectNoHorizontalScroll, expectScreen, fetchText, readCodeFromOutbox } from './support';

/**
 * Save and resume without an account (issue 14, ADR 0030), on a phone: the applicant leaves,
 * closes the browser, comes back the next day (the page's clock moved with Playwright's clock;
 * the server is the real one), resumes by a fresh code, lands on the furthest step with what
 * was entered, and finishes.
 */

test.use({ viewport: { width: 360, height: 740 } });

const DAY_MS = 24 * 60 * 60 * 1000;

/** A new browser (nothing kept from the first visit) whose clock reads the next day. */
async function nextDay(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'ja-JP', timezoneId: 'Asia/Tokyo', reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.clock.setSystemTime(new Date(Date.now() + DAY_MS));
  return page;
}

/** 「申込みを再開する」 on a landing page, then the address and a fresh code. */
async function resumeByCode(page: Page, mailAddress: string): Promise<void> {
  await page.getByRole('link', { name: '申込みを再開する' }).click();
  await expect(page.getByText('認証後、前回の続きからお手続きいただけます。')).toBeVisible();
  await page.getByLabel('メールアドレス').fill(mailAddress);
  await page.getByRole('button', { name: '認証コードを送信する', exact: true }).click();
  await expect(page.getByLabel('認証コード')).toBeVisible();
  await page.getByLabel('認証コード').fill(await readCodeFromOutbox(page, mailAddress));
  await page.getByRole('button', { name: '認証する', exact: true }).click();
}

test('general: leave at /branch, come back the next day, resume by code at /branch with the earlier data, finish', async ({ page, browser }) => {
  const first = await reachPersonal(page, '0177', 'general');
  const mailAddress = first.memo.mailAddress ?? '';
  await act(first, 'FormStep', 'NEXT', 'personal');
  await act(first, 'FormStep', 'NEXT', 'workplace');
  await expectScreen(page, '0177', '/branch', 'お取引店の選択', stepCounterOf('general', '/branch'));
  await page.context().close();

  const later = await nextDay(browser);
  // The page itself, typed in, is refused: only the resume leads there.
  await later.goto(bankUrl('0177', '/branch'));
  await expect(later).toHaveURL(bankUrl('0177', '/error'));
  await later.goto(bankUrl('0177', '/term'));
  await resumeByCode(later, mailAddress);
  await expectScreen(later, '0177', '/branch', 'お取引店の選択', stepCounterOf('general', '/branch'));
  await expectNoHorizontalScroll(later);

  const journey: Journey = { page: later, bank: '0177', flow: 'general', memo: { mailAddress } };
  // What was entered is there: the workplace page shows the occupation chosen yesterday.
  await act(journey, 'FormStep', 'BACK');
  await expect(later).toHaveURL(bankUrl('0177', '/workplace'));
  await expect(byLabel(later, 'ご職業')).toHaveValue(/.+/);
  await later.getByRole('button', { name: '次へ', exact: true }).click();
  await expect(later).toHaveURL(bankUrl('0177', '/branch'));
  await walkTo(journey, '/branch', '/confirmation');
  const { person } = generalApplicants['0177'];
  await expect(later.getByText(`${person.lastName}　${person.firstName}`)).toBeVisible();
  await act(journey, 'Confirmation', 'NEXT');
  await act(journey, 'Pin', 'NEXT');
  await act(journey, 'EkycPreparation', 'START_EKYC');
  await chooseProviderOutcome(journey, 'approve');
  await expect(later).toHaveURL(bankUrl('0177', '/complete'), { timeout: 20_000 });
  await expect(later.getByText('受付番号', { exact: true })).toBeVisible();
});

test('child: leave after the child\'s data, resume from /child/before-check at /child/parent', async ({ page, browser }) => {
  const first = await reachPersonal(page, '0177', 'child');
  const mailAddress = first.memo.mailAddress ?? '';
  await act(first, 'FormStep', 'NEXT', 'personal');
  await expectScreen(page, '0177', '/child/parent', '親権者さまの情報の入力', { step: 2, of: 12 });
  await page.context().close();

  const later = await nextDay(browser);
  const journey = await openJourney(later, '0177', 'child');
  await resumeByCode(later, mailAddress);
  await expectScreen(later, '0177', '/child/parent', '親権者さまの情報の入力', { step: 2, of: 12 });
  await act(journey, 'FormStep', 'NEXT', 'parent');
  await act(journey, 'FormStep', 'NEXT', 'branch');
  await expect(later).toHaveURL(bankUrl('0177', '/child/confirmation'));
  const { child } = childApplicants['0177'];
  await expect(later.getByText(`${child.lastName}　${child.firstName}`).first()).toBeVisible();
});

test('the session error page offers to resume; an address with nothing kept is told so after the code', async ({ page }) => {
  await page.goto(bankUrl('0587', '/error?id=1'));
  await expect(page.getByRole('button', { name: '再申込みへ' })).toBeVisible();
  const mailAddress = `resume-none-${Date.now()}@example.jp`;
  await resumeByCode(page, mailAddress);
  await expect(page.getByRole('alert')).toContainText('再開できるお申込みが見つかりませんでした。');
  await page.getByRole('link', { name: '最初からお申込みする' }).click();
  await expect(page).toHaveURL(bankUrl('0587', '/term'));
});

test('「あとで再開する」 on a step page mails how to resume', async ({ page }) => {
  const journey = await reachPersonal(page, '0181', 'general');
  await page.getByRole('button', { name: 'あとで再開する' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'お申込みを再開する方法を、ご登録のメールアドレスにお送りしました。' })).toBeVisible();
  const to = encodeURIComponent(journey.memo.mailAddress ?? '');
  // The mail queue sends at once, but not within the request: ask until it is there.
  await expect.poll(() => fetchText(page, `/dev/outbox.json?to=${to}`)).toContain('お申込み内容を保存しています');
});

test('two devices: the older page\'s step is refused with a message, and shows the newer answers', async ({ page, browser }) => {
  const first = await reachPersonal(page, '0177', 'general');
  const mailAddress = first.memo.mailAddress ?? '';
  await act(first, 'FormStep', 'NEXT', 'personal');
  await act(first, 'FormStep', 'NEXT', 'workplace');
  await expect(page).toHaveURL(bankUrl('0177', '/branch'));

  // A second device resumes and chooses a branch first.
  const other = await nextDay(browser);
  await other.goto(bankUrl('0177', '/term'));
  await resumeByCode(other, mailAddress);
  await expect(other).toHaveURL(bankUrl('0177', '/branch'));
  await act({ page: other, bank: '0177', flow: 'general', memo: {} }, 'FormStep', 'NEXT', 'branch');
  await expect(other).toHaveURL(bankUrl('0177', '/seal-less'));

  // The first device, still on the page it loaded before, is told and loses nothing stored.
  await act(first, 'FormStep', 'NEXT', 'branch');
  await expect(page.getByRole('alert')).toContainText('別の画面または別の端末で、お申込み内容が更新されています。');
  await expect(page).toHaveURL(bankUrl('0177', '/branch'));
  await page.getByRole('button', { name: '最新の内容を表示する' }).click();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await act(first, 'FormStep', 'NEXT', 'branch');
  await expect(page).toHaveURL(bankUrl('0177', '/seal-less'));
});
