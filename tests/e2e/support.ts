import { expect, type Page } from '@playwright/test';

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
      const mails = JSON.parse(await fetchText(page, `/dev/outbox.json?to=${encodeURIComponent(mailAddress)}`)) as Array<{ to: string; text: string }>;
      code = mails.find((mail) => mail.to === mailAddress)?.text.match(/\b(\d{6})\b/)?.[1];
      return code;
    })
    .toBeTruthy();
  return code as string;
}
