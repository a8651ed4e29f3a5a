import { expect, test, type Page } from '@playwright/test';
import {
  bankCodes,
  bankUrl,
  byLabel,
  completePersonal,
  expectNoHorizontalScroll,
  groupOf,
  reachPersonal,
  type BankCode,
  type PersonalEntry,
} from './support';

/**
 * From the landing page to the completion, through the PIN and the identity check with the
 * provider simulator shipped with the server (src/server/ekyc/simulator.ts), used as an
 * applicant would use the real provider's pages: approve (each bank), approve with a request
 * for a current-address document (a real 12 MP camera JPEG, compressed by the page), reject,
 * and no result in time (the test server polls every 200 ms: EKYC_POLL_INTERVAL_MS).
 */

test.use({ viewport: { width: 360, height: 740 } });

const PERSONS: Record<BankCode, PersonalEntry> = {
  '0177': {
    lastName: '福岡',
    firstName: '花子',
    kanaLastName: 'ﾌｸｵｶ',
    kanaFirstName: 'ﾊﾅｺ',
    birthday: { year: '1990', month: '4', day: '1' },
    gender: '女性',
    mobile: ['090', '1234', '5678'],
    postalNumber: '8100001',
    address: '福岡県福岡市中央区天神',
    subAddress: '2-13-1',
    kanaSubAddress: '2-13-1',
    purposes: ['給与・年金受取'],
  },
  '0587': {
    lastName: '熊本',
    firstName: '太郎',
    kanaLastName: 'ｸﾏﾓﾄ',
    kanaFirstName: 'ﾀﾛｳ',
    birthday: { year: '1985', month: '11', day: '20' },
    gender: '男性',
    mobile: ['080', '2345', '6789'],
    postalNumber: '8600046',
    address: '熊本県熊本市中央区横手',
    subAddress: '1-2-3',
    kanaSubAddress: '1-2-3',
    purposes: ['生計費決済'],
  },
  '0181': {
    lastName: '長崎',
    firstName: '一郎',
    kanaLastName: 'ﾅｶﾞｻｷ',
    kanaFirstName: 'ｲﾁﾛｳ',
    birthday: { year: '1978', month: '2', day: '14' },
    gender: '男性',
    mobile: ['070', '3456', '7890'],
    postalNumber: '8500853',
    address: '長崎県長崎市浜町',
    subAddress: '8-12',
    kanaSubAddress: '8-12',
    purposes: ['給与・年金受取'],
  },
};

/** A PIN none of the persons' birthdays, phones or addresses forbid. */
const PIN = '1357';
const PIN_WARNING = '暗証番号の設定後は、入力内容の修正ができません。よろしいですか？';
const EKYC_ERROR = '本人確認時にエラーが発生しました。お手数ですが、再度本人確認をお願いいたします。';

/** The simulator's outcomes, as its page labels them. */
const OUTCOME = {
  approve: '本人確認OK',
  supplement: '本人確認OK（現住所確認書類の提出を求める）',
  reject: '本人確認NG（書類の不備・顔写真の不一致）',
  pending: '確認中のまま戻る（結果を返さない）',
} as const;

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

/** /term → /confirmation → 申し込む, the shortest honest way (an occupation without workplace). */
async function reachPin(page: Page, bank: BankCode): Promise<void> {
  await reachPersonal(page, bank);
  await completePersonal(page, bank, PERSONS[bank]);
  await byLabel(page, 'ご職業').selectOption({ label: '主婦・主夫' });
  await button(page, '次へ').click();
  await expect(page).toHaveURL(bankUrl(bank, '/branch'));
  await groupOf(page, 'お取引店').locator('label').first().click();
  await button(page, '次へ').click();
  await expect(page).toHaveURL(bankUrl(bank, '/seal-less'));
  await groupOf(page, 'お届け印の登録').getByText('印鑑を登録しない', { exact: true }).click();
  await button(page, '入力内容を確認する').click();
  await expect(page).toHaveURL(bankUrl(bank, '/confirmation'));
  await page.getByLabel('ご住所が本人確認書類の住所と一致していることを確認しました').check();
  await button(page, '申し込む').click();
  await expect(page).toHaveURL(bankUrl(bank, '/pin'));
}

/** /pin (6/7): a forbidden PIN first, then a good one, the warning, OK → /ekyc-preparation. */
async function setPin(page: Page, bank: BankCode): Promise<void> {
  await expect(page.getByText('ステップ 6/7')).toBeVisible();
  const pin = page.getByLabel(/^暗証番号必須$/);
  const confirmation = page.getByLabel(/^暗証番号（確認用）/);
  const set = button(page, '設定する');
  await expect(set).toBeDisabled();
  // The last 4 digits of the mobile phone.
  const mobileEnd = PERSONS[bank].mobile[2];
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

/** /ekyc-preparation (7/7) → the provider simulator → choose an outcome → back to /ekyc-callback. */
async function identityCheck(page: Page, bank: BankCode, outcome: keyof typeof OUTCOME): Promise<void> {
  await expect(page).toHaveURL(bankUrl(bank, '/ekyc-preparation'));
  await expect(page.getByText('ステップ 7/7')).toBeVisible();
  await expect(page.getByText('運転免許証', { exact: true })).toBeVisible();
  await expectNoHorizontalScroll(page);
  await button(page, '本人確認へ進む').click();
  await expect(page).toHaveURL(/\/ekyc-simulator\/sessions\/sim_/);
  await page.getByLabel(OUTCOME[outcome], { exact: true }).check();
  await page.getByRole('button', { name: '結果を送信してお申込み画面へ戻る' }).click();
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
    await reachPin(page, bank);
    await setPin(page, bank);
    await identityCheck(page, bank, 'approve');
    // The callback page polls, /redirect calls the completion, /complete shows the number.
    await expectComplete(page, bank);
  });
}

interface UploadedImage {
  size: number;
  type: string;
  width: number;
  height: number;
  head: number[];
  documentType: string | null;
}

/** A 4000 x 3000 camera-like JPEG of well over 1 MiB, drawn by the browser (as a phone would store it). */
async function cameraJpeg(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 4000;
    canvas.height = 3000;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no canvas');
    const gradient = ctx.createLinearGradient(0, 0, 4000, 3000);
    gradient.addColorStop(0, '#d9d2c0');
    gradient.addColorStop(1, '#8c8170');
    ctx.fillStyle = gradient;
    ctx.fillRect(0, 0, 4000, 3000);
    ctx.fillStyle = '#fdfcf7';
    ctx.fillRect(600, 400, 2800, 2200);
    ctx.fillStyle = '#1e1e1e';
    ctx.font = '72px sans-serif';
    for (let line = 0; line < 20; line += 1) ctx.fillText('電気料金領収書　福岡県福岡市中央区天神2-13-1', 700, 520 + line * 100);
    const image = ctx.getImageData(0, 0, 4000, 3000);
    for (let i = 0; i < image.data.length; i += 4) {
      const grain = (Math.random() - 0.5) * 40;
      image.data[i] = (image.data[i] ?? 0) + grain;
      image.data[i + 1] = (image.data[i + 1] ?? 0) + grain;
      image.data[i + 2] = (image.data[i + 2] ?? 0) + grain;
    }
    ctx.putImageData(image, 0, 0);
    const blob = await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('toBlob failed'))), 'image/jpeg', 0.92),
    );
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  });
  return Buffer.from(base64, 'base64');
}

test('the bank asks for a current-address document: a 12 MP photo is compressed under 1 MiB and accepted', async ({ page }) => {
  test.setTimeout(120_000);
  const bank: BankCode = '0177';
  await reachPin(page, bank);
  await setPin(page, bank);
  await identityCheck(page, bank, 'supplement');

  await expect(page).toHaveURL(bankUrl(bank, '/supplement'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('現住所確認書類の提出');
  await expect(page.getByText('公共料金（電気・ガス・水道・固定電話など）の領収書')).toBeVisible();
  await expect(page.getByText('現住所確認書類を撮影する')).toBeVisible();
  await expectNoHorizontalScroll(page);

  // What the page hands to XMLHttpRequest (Playwright does not expose multipart bodies with files).
  await page.evaluate(() => {
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
      if (body instanceof FormData) {
        const image = body.get('image');
        const documentType = body.get('type');
        if (image instanceof Blob) {
          (window as unknown as { __uploaded?: Promise<unknown> }).__uploaded = Promise.all([
            createImageBitmap(image),
            image.slice(0, 3).arrayBuffer(),
          ]).then(([bitmap, head]) => ({
            size: image.size,
            type: image.type,
            width: bitmap.width,
            height: bitmap.height,
            head: Array.from(new Uint8Array(head)),
            documentType,
          }));
        }
      }
      return send.call(this, body);
    };
  });
  const photo = await cameraJpeg(page);
  expect(photo.length).toBeGreaterThan(1_048_576);
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
  const sent = await page.evaluate(() => (window as unknown as { __uploaded?: Promise<UploadedImage> }).__uploaded);
  // A JPEG that fits, scaled from 4000 x 3000 to fit 1920 x 1080.
  expect(sent).toMatchObject({ type: 'image/jpeg', width: 1440, height: 1080, head: [0xff, 0xd8, 0xff] });
  expect(sent?.size ?? Infinity).toBeLessThanOrEqual(1_048_576);
  expect(sent?.documentType).toBe('CURRENT_ADDRESS_DOCUMENT');
  test.info().annotations.push({ type: 'conversion', description: `${photo.length} bytes → ${sent?.size} bytes, answered after ${Date.now() - started} ms` });

  await expectComplete(page, bank);
});

test('the provider rejects: /ekyc-error, and the applicant can try again', async ({ page }) => {
  const bank: BankCode = '0587';
  await reachPin(page, bank);
  await setPin(page, bank);
  await identityCheck(page, bank, 'reject');
  await expect(page).toHaveURL(bankUrl(bank, '/ekyc-error'));
  await expect(page.getByRole('alert')).toHaveText(EKYC_ERROR);
  await expectNoHorizontalScroll(page);
  await button(page, '本人確認をやり直す').click();
  await expect(page).toHaveURL(bankUrl(bank, '/ekyc-preparation'));
  await expect(button(page, '本人確認へ進む')).toBeEnabled();
});

test('no result in time: 12 tries with visible progress, then /ekyc-error', async ({ page }) => {
  const bank: BankCode = '0181';
  await reachPin(page, bank);
  await setPin(page, bank);
  let statusCalls = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/ekyc/status') statusCalls += 1;
  });
  await identityCheck(page, bank, 'pending');

  await expect(page).toHaveURL(bankUrl(bank, '/ekyc-callback'));
  await expect(page.getByText('本人確認書類を確認しています')).toBeVisible();
  await expect(page.getByText('ステップ 7/7')).toBeVisible();
  const progress = page.getByRole('progressbar', { name: '本人確認の確認状況' });
  await expect(progress).toHaveAttribute('aria-valuemax', '12');
  await expect(progress).toHaveAttribute('aria-valuenow', /^([3-9]|1[0-2])$/);
  await expect(page.getByText(/^確認中です（([3-9]|1[0-2])\/12）$/)).toBeVisible();
  await expectNoHorizontalScroll(page);

  await expect(page).toHaveURL(bankUrl(bank, '/ekyc-error'));
  await expect(page.getByRole('alert')).toHaveText(EKYC_ERROR);
  expect(statusCalls).toBe(12);
  await button(page, '本人確認をやり直す').click();
  await expect(page).toHaveURL(bankUrl(bank, '/ekyc-preparation'));
});
