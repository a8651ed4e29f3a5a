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

/** The summary of /confirmation, per section (its heading) as term → its values joined with ' / '. */
export async function readSummarySections(page: Page): Promise<Record<string, Record<string, string>>> {
  await page.locator('.summary__row').first().waitFor();
  return page.locator('section.summary').evaluateAll((sections) =>
    Object.fromEntries(
      sections
        .filter((section) => section.querySelector('.summary__row'))
        .map((section) => [
          section.querySelector('h2')?.textContent ?? '',
          Object.fromEntries(
            [...section.querySelectorAll('.summary__row')].map((row) => [
              row.querySelector('dt')?.textContent ?? '',
              [...row.querySelectorAll('dd')].map((dd) => dd.textContent ?? '').join(' / '),
            ]),
          ),
        ]),
    ),
  );
}

/** The summary of /confirmation as one term → values record (the general flow's terms are unique). */
export async function readSummary(page: Page): Promise<Record<string, string>> {
  return Object.assign({}, ...Object.values(await readSummarySections(page))) as Record<string, string>;
}

/** The error text under a form field (its live region). */
export function errorOf(page: Page, field: string): Locator {
  return page.locator(`#root_${field}__error`);
}

/** Chooses year, month and day in the three selects of 生年月日. */
export async function chooseBirthday(page: Page, birthday: { year: string; month: string; day: string }): Promise<void> {
  const group = groupOf(page, '生年月日');
  await group.getByLabel('年', { exact: true }).selectOption(birthday.year);
  await group.getByLabel('月', { exact: true }).selectOption(birthday.month);
  await group.getByLabel('日', { exact: true }).selectOption(birthday.day);
}

/** Types a phone number into the three boxes of its group. */
export async function typePhone(page: Page, name: string, parts: readonly [string, string, string]): Promise<void> {
  const boxes = groupOf(page, name).getByRole('textbox');
  for (const [index, part] of parts.entries()) await boxes.nth(index).fill(part);
}

/** Where the applicant is: the path, the page heading and the step counter (or none). */
export async function expectScreen(
  page: Page,
  bank: BankCode,
  path: string,
  heading: string,
  step?: { step: number; of: number },
): Promise<void> {
  await expect(page).toHaveURL(bankUrl(bank, path));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
  const counter = page.getByRole('progressbar', { name: /ステップ中/ });
  if (step) {
    await expect(counter).toHaveText(`ステップ ${step.step}/${step.of}`);
    await expect(counter).toHaveAccessibleName(`${step.of}ステップ中${step.step}ステップ目`);
  } else {
    await expect(counter).toHaveCount(0);
  }
}

/** What a screen showed: path, page heading and step counter text. */
export interface ScreenSeen {
  path: string;
  heading: string;
  step: string | null;
}

/**
 * Records every screen the page shows, however briefly (the eKYC return page polls and leaves
 * within a fraction of a second in the tests), across page loads: a MutationObserver in each
 * document reports path, heading and step counter to the test whenever one of them changes.
 */
export async function recordScreens(page: Page): Promise<ScreenSeen[]> {
  const seen: ScreenSeen[] = [];
  await page.exposeBinding('__screenSeen', (_source, screen: ScreenSeen) => {
    seen.push(screen);
  });
  await page.addInitScript(() => {
    const report = (window as unknown as { __screenSeen: (screen: ScreenSeen) => void }).__screenSeen;
    let last = '';
    const observe = () => {
      const heading = document.querySelector('h1')?.textContent ?? '';
      const step = document.querySelector('[role="progressbar"][aria-label$="ステップ目"]')?.textContent ?? null;
      const key = JSON.stringify([location.pathname, heading, step]);
      if (heading === '' || key === last) return;
      last = key;
      void report({ path: location.pathname, heading, step });
    };
    new MutationObserver(observe).observe(document, { childList: true, subtree: true, characterData: true });
  });
  return seen;
}

/** The page fits the viewport: nothing sticks out sideways at 360 px. */
export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}
