import { expect, test, type Page } from '@playwright/test';
import { act, chooseProviderOutcome, reachPersonal, stepTextOf, TO_PIN, walk, type Journey } from './drivers';
import { generalApplicants, PIN } from './drivers/applicants';
import { documentPhoto, ONE_MIB, readUploads, watchUploads } from './drivers/photos';
import { bankCodes, bankUrl, expectNoHorizontalScroll, type BankCode } from './support';

/**
 * From the landing page to the completion, through the PIN and the identity check with the
 * provider simulator shipped with the server (src/server/ekyc/simulator.ts), used as an
 * applicant would use the real provider's pages: approve (each bank), approve with a request
 * for a current-address document (a real 12 MP camera JPEG, compressed by the page), reject,
 * and no result in time (the test server polls every 200 ms: EKYC_POLL_INTERVAL_MS).
 */

test.use({ viewport: { width: 360, height: 740 } });

const PIN_WARNING = '暗証番号の設定後は、入力内容の修正ができません。よろしいですか？';
const EKYC_ERROR = '本人確認時にエラーが発生しました。お手数ですが、再度本人確認をお願いいたします。';

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

/** The step counter of a page of the general flow, as the flow sets it. */
const counterOf = (path: string) => stepTextOf('general', path);

/** /term → /confirmation → 申し込む with each bank's applicant. */
async function reachPin(page: Page, bank: BankCode): Promise<Journey> {
  const journey = await reachPersonal(page, bank);
  await walk(journey, TO_PIN.general);
  return journey;
}

/** /pin: a forbidden PIN first, then a good one, the warning, OK → /ekyc-preparation. */
async function setPin(page: Page, bank: BankCode): Promise<void> {
  await expect(page.getByText(counterOf('/pin'))).toBeVisible();
  const pin = page.getByLabel(/^暗証番号必須$/);
  const confirmation = page.getByLabel(/^暗証番号（確認用）/);
  const set = button(page, '設定する');
  await expect(set).toBeDisabled();
  // The last 4 digits of the mobile phone.
  const mobileEnd = generalApplicants[bank].person.mobile[2];
  await pin.fill(mobileEnd);
  await confirmation.fill(mobileEnd);
  await confirmation.blur();
  await expect(page.getByText('電話番号の一部は暗証番号に利用できません。')).toBeVisible();
  await expect(set).toBeDisabled();
  await pin.fill(PIN);
  await confirmation.fill(PIN);
  await confirmation.blur();
  await expect(set).toBeEnabled();
  await expectNoHorizontalScroll(page);
  await set.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(PIN_WARNING)).toBeVisible();
  await dialog.getByRole('button', { name: 'キャンセル' }).click();
  await expect(dialog).toHaveCount(0);
  await set.click();
  const pinPosts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/pin') pinPosts.push(request.postData() ?? '');
  });
  await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(bankUrl(bank, '/ekyc-preparation'));
  expect(pinPosts).toHaveLength(1);
  // Only ciphertext travels.
  expect(pinPosts[0]).not.toContain(PIN);
  expect(JSON.parse(pinPosts[0] ?? '{}')).toEqual({ code: expect.stringMatching(/^[A-Za-z0-9+/]+={0,2}$/), keyId: expect.any(String) });
}

/** /ekyc-preparation → the provider simulator → the outcome → back to /ekyc-callback. */
async function identityCheck(journey: Journey, outcome: Parameters<typeof chooseProviderOutcome>[1]): Promise<void> {
  const { page, bank } = journey;
  await expect(page).toHaveURL(bankUrl(bank, '/ekyc-preparation'));
  await expect(page.getByText(counterOf('/ekyc-preparation'))).toBeVisible();
  await expect(page.getByText('運転免許証', { exact: true })).toBeVisible();
  await expectNoHorizontalScroll(page);
  await act(journey, 'EkycPreparation', 'START_EKYC');
  await chooseProviderOutcome(journey, outcome);
}

/** /complete: the number and time, the bank's desk; session storage is empty. */
async function expectComplete(page: Page, bank: BankCode): Promise<void> {
  await expect(page).toHaveURL(bankUrl(bank, '/complete'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('お申込み完了');
  const receipt = page.locator('dl.receipt');
  await expect(receipt.locator('dd').first()).toHaveText(new RegExp(`^${bank}-\\d{6}-\\d{6}$`));
  await expect(receipt.locator('dd').nth(1)).toHaveText(/^\d{4}年\d{1,2}月\d{1,2}日 \d{1,2}:\d{2}$/);
  await expect(page.getByText(/お申込み完了のメールをお送りしました/)).toBeVisible();
  await expect(page.getByRole('link', { name: /^電話番号 0\d{2,4}-\d{2,4}-\d{3,4}$/ })).toHaveAttribute('href', /^tel:\d+$/);
  await expect(page.getByRole('link', { name: /アンケートに回答する/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /のホームページへ$/ })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  await expectNoHorizontalScroll(page);
}

for (const bank of bankCodes) {
  test(`bank ${bank}: PIN, identity check approved, application complete`, async ({ page }) => {
    const journey = await reachPin(page, bank);
    await setPin(page, bank);
    await identityCheck(journey, 'approve');
    // The callback page polls, /redirect calls the completion, /complete shows the number.
    await expectComplete(page, bank);
  });
}

test('the bank asks for a current-address document: a 12 MP photo is compressed under 1 MiB and accepted', async ({ page }) => {
  test.setTimeout(120_000);
  const bank: BankCode = '0177';
  await watchUploads(page);
  const journey = await reachPin(page, bank);
  await walk(journey, [['Pin', 'NEXT', '/ekyc-preparation']]);
  await identityCheck(journey, 'supplement');

  await expect(page).toHaveURL(bankUrl(bank, '/supplement'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('現住所確認書類の提出');
  await expect(page.getByText('公共料金（電気・ガス・水道・固定電話など）の領収書')).toBeVisible();
  await expect(page.getByText('現住所確認書類を撮影する')).toBeVisible();
  await expectNoHorizontalScroll(page);

  const photo = await documentPhoto(page, 'paper');
  expect(photo.length).toBeGreaterThan(ONE_MIB);
  await page.getByLabel('現住所確認書類を撮影する').setInputFiles({ name: 'IMG_0001.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(page.getByRole('img', { name: '撮影した現住所確認書類' })).toBeVisible();
  const upload = page.getByRole('button', { name: 'この写真でアップロード' });
  await expect(upload).toBeDisabled();
  for (const text of ['発行日（領収日）から6か月以内の書類です', 'お名前と現在のご住所が写っています', '書類全体が写り、文字がはっきり読めます']) {
    await page.getByLabel(text).check();
  }
  await expectNoHorizontalScroll(page);

  const uploaded = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/documents');
  const started = Date.now();
  await upload.click();
  // The progress bar shows while the photo is converted and sent.
  await expect(page.getByRole('progressbar')).toBeVisible();
  const response = await uploaded;
  expect(response.status()).toBe(201);
  const [sent] = await readUploads(page);
  // A JPEG that fits, scaled from 4000 x 3000 to fit 1920 x 1080.
  expect(sent).toMatchObject({ type: 'image/jpeg', width: 1440, height: 1080, head: [0xff, 0xd8, 0xff] });
  expect(sent?.size ?? Infinity).toBeLessThanOrEqual(ONE_MIB);
  expect(sent?.documentType).toBe('CURRENT_ADDRESS_DOCUMENT');
  test.info().annotations.push({ type: 'conversion', description: `${photo.length} bytes → ${sent?.size} bytes, answered after ${Date.now() - started} ms` });

  await expectComplete(page, bank);
});

test('a photo the page cannot read: /supplement-error, and the applicant can upload again', async ({ page }) => {
  const bank: BankCode = '0181';
  const journey = await reachPin(page, bank);
  await walk(journey, [['Pin', 'NEXT', '/ekyc-preparation']]);
  await identityCheck(journey, 'supplement');
  await walk(journey, [
    ['Supplement', 'FAIL', '/supplement-error'],
    ['SupplementError', 'RETRY', '/supplement'],
  ]);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('現住所確認書類の提出');
});

test('the provider rejects: /ekyc-error, and the applicant can try again', async ({ page }) => {
  const bank: BankCode = '0587';
  const journey = await reachPin(page, bank);
  await walk(journey, [['Pin', 'NEXT', '/ekyc-preparation']]);
  await identityCheck(journey, 'reject');
  await expect(page).toHaveURL(bankUrl(bank, '/ekyc-error'));
  await expect(page.getByRole('alert')).toHaveText(EKYC_ERROR);
  await expectNoHorizontalScroll(page);
  await walk(journey, [['EkycError', 'RETRY', '/ekyc-preparation']]);
  await expect(button(page, '書類の撮影で本人確認へ進む')).toBeEnabled();
});

test('no result in time: 12 tries with visible progress, then /ekyc-error', async ({ page }) => {
  const bank: BankCode = '0181';
  const journey = await reachPin(page, bank);
  await walk(journey, [['Pin', 'NEXT', '/ekyc-preparation']]);
  let statusCalls = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/ekyc/status') statusCalls += 1;
  });
  await identityCheck(journey, 'pending');

  await expect(page).toHaveURL(bankUrl(bank, '/ekyc-callback'));
  await expect(page.getByText('本人確認書類を確認しています')).toBeVisible();
  await expect(page.getByText(counterOf('/ekyc-callback'))).toBeVisible();
  const progress = page.getByRole('progressbar', { name: '本人確認の確認状況' });
  await expect(progress).toHaveAttribute('aria-valuemax', '12');
  await expect(progress).toHaveAttribute('aria-valuenow', /^([3-9]|1[0-2])$/);
  await expect(page.getByText(/^確認中です（([3-9]|1[0-2])\/12）$/)).toBeVisible();
  await expectNoHorizontalScroll(page);

  await expect(page).toHaveURL(bankUrl(bank, '/ekyc-error'));
  await expect(page.getByRole('alert')).toHaveText(EKYC_ERROR);
  expect(statusCalls).toBe(12);
  await walk(journey, [['EkycError', 'RETRY', '/ekyc-preparation']]);
});
