import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { bankCodes, bankUrl, fetchText, passPreCheck } from './support';

const bankName = (code: string) => (JSON.parse(readFileSync(new URL(`../../banks/${code}/bank.json`, import.meta.url), 'utf8')) as { NAME: string }).NAME;

for (const code of bankCodes) {
  test(`bank ${code}: the landing page shows its own name and logo`, async ({ page }) => {
    const name = bankName(code);
    await page.goto(bankUrl(code, '/'));
    await expect(page).toHaveURL(bankUrl(code, '/term'));
    const logo = page.getByRole('img', { name }).first();
    await expect(logo).toBeVisible();
    const logoSvg = await fetchText(page, '/bank/logo');
    expect(logoSvg).toBe(readFileSync(new URL(`../../banks/${code}/logo.svg`, import.meta.url), 'utf8'));
    await expect(page.getByText(`${name}で初めて口座を開設されますか？`)).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(name));
    // Nothing overflows a phone screen sideways.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
}

test('an unknown host gets an error page, not another bank', async ({ page }) => {
  const response = await page.goto(bankUrl('9999', '/term'));
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'ページが見つかりません' })).toBeVisible();
  for (const code of bankCodes) await expect(page.getByText(bankName(code))).toHaveCount(0);
});

test('a "no" answer blocks the application and hides the later questions', async ({ page }) => {
  await page.goto(bankUrl('0177', '/term'));
  await page.getByRole('group', { name: /^Q1\./ }).getByText('はい', { exact: true }).click();
  await page.getByRole('group', { name: /^Q2\./ }).getByText('はい', { exact: true }).click();
  await page.getByRole('group', { name: /^Q3\./ }).getByText('いいえ', { exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('満18歳未満の方は、本サービスをご利用いただけません。');
  await expect(page.getByRole('group', { name: /^Q4\./ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: '次へ' })).toBeDisabled();
});

test('the regulations disagreed message is the spec text, and next stays disabled', async ({ page }) => {
  await page.goto(bankUrl('0587', '/term'));
  for (const n of [1, 2, 3, 4]) await page.getByRole('group', { name: new RegExp(`^Q${n}\\.`) }).getByText('はい', { exact: true }).click();
  await page.getByRole('group', { name: /^Q5\./ }).getByText('同意しない', { exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('同意をいただけない場合、本サービスをご利用できません。');
  await expect(page.getByRole('button', { name: '次へ' })).toBeDisabled();
});

test('all answers positive enable next, which leads to /verification', async ({ page }) => {
  await page.goto(bankUrl('0181', '/term?channel=web-ad&workplace=ABC123&invitation=INV001'));
  await passPreCheck(page);
  await page.getByRole('button', { name: '次へ' }).click();
  await expect(page).toHaveURL(bankUrl('0181', '/verification'));
  expect(await page.evaluate(() => sessionStorage.getItem('bankCode'))).toBe('0181');
  expect(await page.evaluate(() => sessionStorage.getItem('channel'))).toBe('web-ad');
  const cookies = await page.context().cookies();
  const workplace = cookies.find((c) => c.name === 'workplace');
  expect(workplace?.value).toBe('ABC123');
  // 7 days, give or take the test's own run time.
  expect((workplace?.expires ?? 0) - Date.now() / 1000).toBeGreaterThan(7 * 24 * 3600 - 120);
});

test('/ and unknown paths go to /term', async ({ page }) => {
  await page.goto(bankUrl('0177', '/xyz'));
  await expect(page).toHaveURL(bankUrl('0177', '/term'));
  await page.goto(bankUrl('0177', '/'));
  await expect(page).toHaveURL(bankUrl('0177', '/term'));
});

test('a deep link into the flow lands on the error page', async ({ page }) => {
  await page.goto(bankUrl('0177', '/personal'));
  await expect(page).toHaveURL(bankUrl('0177', '/error'));
  await expect(page.getByText('システムエラーが発生しました', { exact: false })).toBeVisible();
  await page.goto(bankUrl('0177', '/child/parent'));
  await expect(page).toHaveURL(bankUrl('0177', '/child/error'));
});
