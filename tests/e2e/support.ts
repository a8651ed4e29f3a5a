import { expect, type Locator, type Page } from '@playwright/test';

export const bankCodes = ['0177', '0587', '0181'] as const;
export type BankCode = (typeof bankCodes)[number];

export function bankUrl(code: string, path = '/'): string {
  const port = process.env.E2E_PORT ?? '3199';
  return `http://${code}.localhost:${port}${path}`;
}

/** A fresh address per test, so parallel tests never read each other's codes. */
export function uniqueMailAddress(tag: string): string {
  return `e2e-${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.jp`;
}

/** Answers the eight pre-application questions positively, in order, as an applicant would. */
export async function passPreCheck(page: Page): Promise<void> {
  const question = (n: number) => page.getByRole('group', { name: new RegExp(`^Q${n}\\.`) });
  for (const n of [1, 2, 3, 4]) await question(n).getByText('はい', { exact: true }).click();
  await question(5).getByText('同意する', { exact: true }).click();
  await question(6).getByText('紐づけない', { exact: true }).click();
  await page.getByLabel('通帳が発行されないことを確認しました').check();
  await page.getByLabel('原則として印鑑の登録を行わないことを確認しました').check();
}

/**
 * GET from the page itself: Node's resolver does not know *.localhost, the browser does, and
 * the bank is chosen by that host name.
 */
export async function fetchText(page: Page, path: string): Promise<string> {
  return page.evaluate(async (url) => (await fetch(url)).text(), path);
}

/** Reads the newest verification code sent to an address from the development outbox. */
export async function readCodeFromOutbox(page: Page, mailAddress: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const answer: unknown = JSON.parse(await fetchText(page, `/dev/outbox.json?to=${encodeURIComponent(mailAddress)}`));
      // A mail still being written can make one read fail: that is "not yet", the poll asks again.
      const mails = Array.isArray(answer) ? (answer as Array<{ to: string; text: string }>) : [];
      code = mails.find((mail) => mail.to === mailAddress)?.text.match(/\b(\d{6})\b/)?.[1];
      return code;
    })
    .toBeTruthy();
  return code as string;
}

/**
 * Walks the real way to /personal: landing, the pre-application check, the e-mail address
 * and the code read from the development outbox. Returns the address used.
 */
export async function reachPersonal(page: Page, bank: BankCode = '0177', landingQuery = ''): Promise<string> {
  const mailAddress = uniqueMailAddress(`personal-${bank}`);
  // landingQuery: e.g. '?workplace=F10001&invitation=FBK001', as a bank's link would carry.
  await page.goto(bankUrl(bank, `/term${landingQuery}`));
  await passPreCheck(page);
  await page.getByRole('button', { name: '次へ' }).click();
  await expect(page).toHaveURL(bankUrl(bank, '/verification'));
  await page.getByLabel('メールアドレス').fill(mailAddress);
  await page.getByRole('button', { name: '認証コードを送信する' }).click();
  const code = await readCodeFromOutbox(page, mailAddress);
  await page.getByLabel('認証コード').fill(code);
  await page.getByRole('button', { name: '認証する' }).click();
  await expect(page).toHaveURL(bankUrl(bank, '/personal'));
  await expect(page.getByRole('button', { name: '次へ' })).toBeVisible();
  return mailAddress;
}

/** What the general applicant types on /personal (an address found by the real postal lookup). */
export interface PersonalEntry {
  lastName: string;
  firstName: string;
  /** The furigana the server suggests for the names (half-width katakana). */
  kanaLastName: string;
  kanaFirstName: string;
  birthday: { year: string; month: string; day: string };
  gender: '男性' | '女性';
  mobile: [string, string, string];
  postalNumber: string;
  /** The candidate to choose when the postal code has several. */
  address: string;
  subAddress: string;
  kanaSubAddress: string;
  /** Labels of the purposes of use to tick. */
  purposes: string[];
}

/** A control by its label, which ends in the 必須/任意 badge. */
export function byLabel(page: Page, label: string): Locator {
  return page.getByLabel(new RegExp(`^${escapeRegExp(label)}(必須|任意|いずれか必須)?$`));
}

/** A fieldset by its legend (which ends in the badge). */
export function groupOf(page: Page, name: string): Locator {
  return page.getByRole('group', { name: new RegExp(`^${escapeRegExp(name)}`) });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Fills /personal as an applicant would: the names (checking the furigana the server
 * suggests), birthday, gender, mobile phone, the postal code search and one of its
 * candidates, the rest of the address and the purposes; then 次へ to /workplace.
 */
export async function completePersonal(page: Page, bank: BankCode, entry: PersonalEntry): Promise<void> {
  await byLabel(page, 'お名前（姓）').fill(entry.lastName);
  await byLabel(page, 'お名前（名）').focus();
  await expect(byLabel(page, 'フリガナ（セイ）')).toHaveValue(entry.kanaLastName);
  await byLabel(page, 'お名前（名）').fill(entry.firstName);
  await byLabel(page, 'フリガナ（セイ）').focus();
  await expect(byLabel(page, 'フリガナ（メイ）')).toHaveValue(entry.kanaFirstName);
  const birthday = groupOf(page, '生年月日');
  await birthday.getByLabel('年', { exact: true }).selectOption(entry.birthday.year);
  await birthday.getByLabel('月', { exact: true }).selectOption(entry.birthday.month);
  await birthday.getByLabel('日', { exact: true }).selectOption(entry.birthday.day);
  await page.getByText(entry.gender, { exact: true }).click();
  const mobile = groupOf(page, '携帯電話番号').getByRole('textbox');
  for (const [index, part] of entry.mobile.entries()) await mobile.nth(index).fill(part);
  await byLabel(page, '郵便番号').fill(entry.postalNumber);
  await page.getByRole('button', { name: '住所を検索' }).click();
  const candidates = page.getByRole('group', { name: '住所の候補' });
  await expect(candidates.getByText(entry.address, { exact: true })).toBeVisible();
  if ((await candidates.getByRole('radio').count()) > 1) await candidates.getByLabel(entry.address, { exact: true }).check();
  await expect(page.locator('output')).toHaveText(entry.address);
  await byLabel(page, '番地・建物名・部屋番号').fill(entry.subAddress);
  await byLabel(page, '番地・建物名・部屋番号（フリガナ）').fill(entry.kanaSubAddress);
  for (const purpose of entry.purposes) await page.getByLabel(purpose, { exact: true }).check();
  await page.getByRole('button', { name: '次へ' }).click();
  await expect(page).toHaveURL(bankUrl(bank, '/workplace'));
}

/** The summary of /confirmation as term → its values joined with ' / ' (from the definition lists). */
export async function readSummary(page: Page): Promise<Record<string, string>> {
  await page.locator('.summary__row').first().waitFor();
  return page.locator('.summary__row').evaluateAll((rows) =>
    Object.fromEntries(
      rows.map((row) => [
        row.querySelector('dt')?.textContent ?? '',
        [...row.querySelectorAll('dd')].map((dd) => dd.textContent ?? '').join(' / '),
      ]),
    ),
  );
}

/** The page fits the viewport: nothing sticks out sideways at 360 px. */
export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}
