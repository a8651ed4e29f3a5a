import { expect, test, type Page } from '@playwright/test';
import { openJourney, walk } from './drivers';
import { bankUrl, expectNoHorizontalScroll } from './support';

const question = (page: Page, n: number) => page.getByRole('group', { name: new RegExp(`^Q${n}\\.`) });

/** Opens the child before-check of bank 0587, ticks both boxes and goes on to /child/term. */
async function reachChildTerm(page: Page): Promise<void> {
  await walk(await openJourney(page, '0587', 'child'), [['ChildBeforeCheck', 'NEXT', '/child/term']]);
}

test('child before-check (0587): neighbours text, both boxes gate next, invitation kept', async ({ page }) => {
  await page.goto(bankUrl('0587', '/child/before-check?invitation=KMM001&channel=web-ad'));
  await expect(page.getByRole('img', { name: /熊本銀行/ }).first()).toBeVisible();
  await expect(page.getByText(/熊本県・福岡県・鹿児島県にお住まいの方/)).toBeVisible();
  await expectNoHorizontalScroll(page);

  const next = page.getByRole('button', { name: '次へ' });
  await expect(next).toBeDisabled();
  await page.getByLabel('上記の内容を確認しました').check();
  await expect(next).toBeDisabled();
  await page.getByLabel('必要書類を確認しました').check();
  await expect(next).toBeEnabled();

  expect(await page.evaluate(() => sessionStorage.getItem('invitation'))).toBe('KMM001');
  expect(await page.evaluate(() => sessionStorage.getItem('channel'))).toBe('web-ad');
  await next.click();
  await expect(page).toHaveURL(bankUrl('0587', '/child/term'));
  expect(await page.evaluate(() => sessionStorage.getItem('bankCode'))).toBe('0587');
  expect(await page.evaluate(() => sessionStorage.getItem('invitation'))).toBe('KMM001');
});

test('child term: a "no" to the national conditions shows the not-eligible message and hides the rest', async ({ page }) => {
  await reachChildTerm(page);
  await question(page, 1).getByText('いいえ', { exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('上記の条件を満たさない場合、本サービスはご利用できません。お近くの店舗にご相談ください。');
  await expect(page.getByRole('alert').getByRole('link', { name: /店舗・ATM検索/ })).toBeVisible();
  await expect(question(page, 2)).toHaveCount(0);
  await expect(page.getByRole('button', { name: '次へ' })).toBeDisabled();
});

test('child term: progressive reveal, then next reaches /child/verification', async ({ page }) => {
  await reachChildTerm(page);
  await expect(question(page, 2)).toHaveCount(0);
  await question(page, 1).getByText('はい', { exact: true }).click();
  await expect(question(page, 2)).toBeVisible();
  await expect(question(page, 3)).toBeVisible();
  await expect(question(page, 4)).toHaveCount(0);
  await question(page, 2).getByText('同意する', { exact: true }).click();
  await question(page, 3).getByText('同意する', { exact: true }).click();
  await expect(question(page, 4)).toBeVisible();
  await expect(question(page, 5)).toHaveCount(0);
  await page.getByLabel('通帳が発行されないことを確認しました').check();
  await expect(question(page, 5)).toBeVisible();
  const next = page.getByRole('button', { name: '次へ' });
  await expect(next).toBeDisabled();
  await page.getByLabel('印鑑の登録を行わないことを確認しました').check();
  await expectNoHorizontalScroll(page);
  await next.click();
  await expect(page).toHaveURL(bankUrl('0587', '/child/verification'));
});
