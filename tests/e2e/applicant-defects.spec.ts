import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { messages } from '../../src/domain/messages';
import { generalApplicants } from './drivers/applicants';
import { fillPersonal } from './drivers/forms';
import { act, openJourney, reachPersonal, walk, type Journey } from './drivers';
import { bankUrl, byLabel, errorOf, expectScreen, groupOf, passPreCheck, readCodeFromOutbox, readSummarySections, type BankCode } from './support';

/**
 * Issue 16: what a new applicant tripped over at 360 px, each kept fixed by a test that finds
 * elements by role and label as the applicant sees them.
 */
test.use({ viewport: { width: 360, height: 740 } });

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

/** The child flow up to /child/parent, the form ready. */
async function reachChildParent(page: Page): Promise<Journey> {
  const journey = await reachPersonal(page, '0177', 'child');
  await act(journey, 'FormStep', 'NEXT', 'personal');
  await expect(page).toHaveURL(bankUrl('0177', '/child/parent'));
  await expect(byLabel(page, 'お名前（姓）')).toBeVisible();
  return journey;
}

/** The general flow up to /workplace, the form ready. */
async function reachWorkplace(page: Page): Promise<Journey> {
  const journey = await reachPersonal(page, '0177');
  await act(journey, 'FormStep', 'NEXT', 'personal');
  await expect(page).toHaveURL(bankUrl('0177', '/workplace'));
  await expect(byLabel(page, 'ご職業')).toBeVisible();
  return journey;
}

/** Whether two elements' boxes on the screen overlap. */
async function overlaps(a: Locator, b: Locator): Promise<boolean> {
  const [boxA, boxB] = [await a.boundingBox(), await b.boundingBox()];
  if (!boxA || !boxB) return false;
  return boxA.x < boxB.x + boxB.width && boxB.x < boxA.x + boxA.width && boxA.y < boxB.y + boxB.height && boxB.y < boxA.y + boxA.height;
}

test('1. /child/parent: 続柄 shows only the Japanese choices, no developer text', async ({ page }) => {
  await reachChildParent(page);
  const relationship = groupOf(page, '続柄');
  await expect(relationship.getByRole('radio')).toHaveCount(2);
  await expect(relationship.getByLabel('父', { exact: true })).toBeVisible();
  await expect(relationship.getByLabel('母', { exact: true })).toBeVisible();
  await expect(relationship).not.toContainText(/FATHER|MOTHER|=/);
  await expect(page.getByText(/FATHER|MOTHER|MINOR/)).toHaveCount(0);
});

test('2. /personal: the distance reason in error carries aria-invalid, like every field', async ({ page }) => {
  await reachPersonal(page, '0177');
  // Outside 福岡県 at bank 0177: the distance reason is required.
  await fillPersonal(page, { ...generalApplicants['0177'].person, postalNumber: '8600046', address: '熊本県熊本市中央区横手' });
  const reason = byLabel(page, '遠隔地でのお取引の理由');
  await expect(reason).toBeVisible();
  await expect(reason).not.toHaveAttribute('aria-invalid', 'true');
  await button(page, '次へ').click();
  await expect(errorOf(page, 'distanceTransactionReason')).toHaveText(messages.required);
  await expect(reason).toBeFocused();
  await expect(reason).toHaveAttribute('aria-invalid', 'true');
  // Corrected and left: the message and aria-invalid go together.
  await reason.fill('実家が熊本にあるため');
  await button(page, '戻る').focus();
  await expect(errorOf(page, 'distanceTransactionReason')).toHaveText('');
  await expect(reason).not.toHaveAttribute('aria-invalid', 'true');
});

test('3. a load answered 401 goes to the error page with id=1, never waits for ever, and offers to resume', async ({ page }) => {
  const journey = await reachWorkplace(page);
  // Back twice with the browser: /verification forgets the token; then forward to /personal.
  await page.goBack();
  await expect(page).toHaveURL(bankUrl('0177', '/personal'));
  await expect(byLabel(page, 'お名前（姓）')).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(bankUrl('0177', '/verification'));
  await expect(byLabel(page, 'メールアドレス')).toBeVisible();
  await page.goForward();
  await expect(page).toHaveURL(bankUrl('0177', '/error?id=1'));
  await expect(page.getByText(messages.unauthorized)).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: '読み込み中です' })).toHaveCount(0);
  await expect(button(page, '再申込みへ')).toBeVisible();
  // The way on that keeps what was entered: resume by a fresh code, back at the furthest step.
  const mailAddress = journey.memo.mailAddress ?? '';
  await page.getByRole('link', { name: '申込みを再開する' }).click();
  await page.getByLabel('メールアドレス').fill(mailAddress);
  await button(page, '認証コードを送信する').click();
  await page.getByLabel('認証コード').fill(await readCodeFromOutbox(page, mailAddress));
  await button(page, '認証する').click();
  await expect(page).toHaveURL(bankUrl('0177', '/workplace'));
  await button(page, '戻る').click();
  await expect(byLabel(page, 'お名前（姓）')).toHaveValue(generalApplicants['0177'].person.lastName);
});

test('3. a step page reloaded without a token goes to the error page with id=1', async ({ page }) => {
  await reachWorkplace(page);
  await page.evaluate(() => sessionStorage.removeItem('authenticationToken'));
  await page.reload();
  await expect(page).toHaveURL(bankUrl('0177', '/error?id=1'));
  await expect(page.getByText(messages.unauthorized)).toBeVisible();
  await expect(button(page, '再申込みへ')).toBeVisible();
});

/** The domain of the bank's sending address, read from its configuration as the server reads it. */
function mailDomainOf(bank: BankCode): string {
  const file = new URL(`../../banks/${bank}/bank.json`, import.meta.url);
  const { MAIL_ADDRESS } = JSON.parse(readFileSync(file, 'utf8')) as { MAIL_ADDRESS: string };
  return MAIL_ADDRESS.split('@')[1] ?? '';
}

for (const bank of ['0177', '0587'] as const) {
  test(`4. /verification names the sending domain of bank ${bank}`, async ({ page }) => {
    const journey = await openJourney(page, bank, 'general');
    await walk(journey, [['GeneralTerm', 'NEXT', '/verification']]);
    const domain = mailDomainOf(bank);
    expect(domain).toMatch(/\./);
    await expect(page.getByText(`「@」以降のドメイン「${domain}」からのメールを受信できるよう`)).toBeVisible();
  });
}

test('5. /child/confirmation shows only what the child flow asked: no seal', async ({ page }) => {
  const journey = await reachChildParent(page);
  await walk(journey, [
    ['FormStep', 'NEXT', '/child/branch', 'parent'],
    ['FormStep', 'NEXT', '/child/confirmation', 'branch'],
  ]);
  const sections = await readSummarySections(page);
  expect(Object.keys(sections)).toEqual(['お子さまの情報', '親権者さまの情報', 'お取引店']);
  await expect(page.getByRole('heading', { name: 'お届け印' })).toHaveCount(0);
  await expect(page.getByText('お届け印の登録')).toHaveCount(0);
});

test('6. the parent\'s name gets its furigana suggested on blur, like the child\'s', async ({ page }) => {
  await reachChildParent(page);
  await byLabel(page, 'お名前（姓）').fill('福岡');
  await byLabel(page, 'お名前（名）').focus();
  await expect(byLabel(page, 'フリガナ（セイ）')).toHaveValue('ﾌｸｵｶ');
  await byLabel(page, 'お名前（名）').fill('花子');
  await byLabel(page, 'フリガナ（セイ）').focus();
  await expect(byLabel(page, 'フリガナ（メイ）')).toHaveValue('ﾊﾅｺ');
  // A kana the applicant typed is never overwritten.
  await byLabel(page, 'フリガナ（メイ）').fill('ハナ');
  await byLabel(page, 'お名前（名）').fill('花');
  await byLabel(page, 'フリガナ（セイ）').focus();
  await expect(byLabel(page, 'フリガナ（メイ）')).toHaveValue('ﾊﾅ');
});

test('7. the workplace reminder never covers the focused control or 次へ and 戻る', async ({ page }) => {
  await reachWorkplace(page);
  const toast = page.locator('.toast');
  await expect(toast.getByText(messages.workplaceOrInvitationReminder)).toBeVisible();
  const next = button(page, '次へ');
  const back = button(page, '戻る');
  // The buttons at the bottom of the screen, as the applicant scrolls to them.
  for (const target of [next, back]) {
    await target.evaluate((element) => element.scrollIntoView({ block: 'end' }));
    await expect(toast).toBeVisible();
    expect(await overlaps(toast, next)).toBe(false);
    expect(await overlaps(toast, back)).toBe(false);
  }
  // Every control of the page, focused from the top: never under the toast.
  await page.evaluate(() => window.scrollTo(0, 0));
  const controls = page.locator('main').locator('input:visible, select:visible, textarea:visible, button:visible');
  const count = await controls.count();
  expect(count).toBeGreaterThan(5);
  for (let index = 0; index < count; index += 1) {
    const control = controls.nth(index);
    if ((await control.evaluate((element) => element.closest('.toast') !== null)) || (await control.isDisabled())) continue;
    await control.focus();
    await expect.poll(() => overlaps(toast, control), { message: `control ${index} is under the toast` }).toBe(false);
  }
});

test('8. after a page change the focus is on the new page\'s heading; on a submit, on the first error', async ({ page }) => {
  const journey = await openJourney(page, '0177', 'general');
  await passPreCheck(page);
  await button(page, '次へ').click();
  await expectScreen(page, '0177', '/verification', 'メールアドレスの登録');
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await walk(journey, [
    ['Verification', 'CODE_SENT', '/verification'],
    ['Verification', 'NEXT', '/personal'],
  ]);
  await expect(page.getByRole('heading', { level: 1, name: 'お客さま情報の入力' })).toBeFocused();
  // The focus still goes to the first field in error on 次へ.
  await button(page, '次へ').click();
  await expect(byLabel(page, 'お名前（姓）')).toBeFocused();
  // Back with 戻る: the previous page's heading.
  await button(page, '戻る').click();
  await expect(page).toHaveURL(bankUrl('0177', '/verification'));
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
});

test('also seen: 次へ right after a workplace code not found says it and how to go on', async ({ page }) => {
  await reachWorkplace(page);
  await byLabel(page, 'ご職業').selectOption({ label: generalApplicants['0177'].occupation });
  await byLabel(page, '勤務先コード').fill('99999999');
  await page.getByRole('button', { name: /^適用.*勤務先コード/ }).click();
  await expect(errorOf(page, 'workplaceId')).toContainText(messages.workplaceNotFound);
  await button(page, '次へ').click();
  await expect(errorOf(page, 'workplaceId')).toContainText(messages.workplaceNotFound);
  await expect(errorOf(page, 'workplaceId')).toContainText(messages.confirmCode);
  await expect(byLabel(page, '勤務先コード')).toBeFocused();
  await expect(page).toHaveURL(bankUrl('0177', '/workplace'));
});

test('also seen: what was typed on /workplace and not sent stays after back and forward', async ({ page }) => {
  await reachWorkplace(page);
  await byLabel(page, 'ご職業').selectOption({ label: '会社員' });
  await byLabel(page, 'お勤め先名').fill('福岡商事株式会社');
  await button(page, '戻る').click();
  await expect(page).toHaveURL(bankUrl('0177', '/personal'));
  await expect(byLabel(page, 'お名前（姓）')).toHaveValue(generalApplicants['0177'].person.lastName);
  await button(page, '次へ').click();
  await expect(page).toHaveURL(bankUrl('0177', '/workplace'));
  await expect(byLabel(page, 'ご職業')).toHaveValue(/.+/);
  await expect(byLabel(page, 'ご職業').locator('option:checked')).toHaveText('会社員');
  await expect(byLabel(page, 'お勤め先名')).toHaveValue('福岡商事株式会社');
});
