import { expect, test, type Page } from '@playwright/test';
import { act, chooseProviderOutcome, PROVIDER_PAGES, reachIdentityCheck, stepTextOf, walk, type FlowId, type Journey } from './drivers';
import { bankUrl, expectNoHorizontalScroll, expectScreen, recordScreens, type BankCode, type ScreenSeen } from './support';

/**
 * The identity check with the My Number card (JPKI over OpenID Connect, issue 15) on a phone,
 * against the stand-in OpenID provider the server ships (src/server/ekyc/oidc-standin.ts):
 * from the page that offers both methods, through 「マイナンバーカードで本人確認へ進む」 and the
 * stand-in's page, back to the return page, which polls, to the application number; for the
 * applicant (GENERAL) and the parent (CHILD). A card of another person ends on the eKYC error
 * page, from which the applicant starts the check again.
 */

test.use({ viewport: { width: 360, height: 740 } });

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

/** Each flow's pages around the identity check (flows/general.json, flows/child.json). */
const PAGES: Record<FlowId, { preparation: string; heading: string; step: string; callback: string; redirect: string; complete: string }> = {
  general: { preparation: '/ekyc-preparation', heading: '本人確認の準備', step: stepTextOf('general', '/ekyc-preparation'), callback: '/ekyc-callback', redirect: '/redirect', complete: '/complete' },
  child: {
    preparation: '/child/parent-ekyc-preparation',
    heading: '親権者さまの本人確認',
    step: stepTextOf('child', '/child/parent-ekyc-preparation'),
    callback: '/child/ekyc-callback',
    redirect: '/child/redirect',
    complete: '/child/complete',
  },
};

/** The preparation page offers both methods (the banks offer both today), each under its own heading and button. */
async function expectBothMethods(journey: Journey): Promise<void> {
  const { page, bank, flow } = journey;
  await expect(page).toHaveURL(bankUrl(bank, PAGES[flow].preparation));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(PAGES[flow].heading);
  await expect(page.getByRole('progressbar', { name: /ステップ中/ })).toHaveText(PAGES[flow].step);
  await expect(page.getByText('本人確認は、次の2つの方法からお選びいただけます。')).toBeVisible();
  await expect(page.getByRole('heading', { level: 2 }).filter({ hasText: /^(本人確認書類とお顔を撮影する|マイナンバーカードを読み取る)$/ })).toHaveText([
    '本人確認書類とお顔を撮影する',
    'マイナンバーカードを読み取る',
  ]);
  await expect(button(page, '書類の撮影で本人確認へ進む')).toBeEnabled();
  await expect(button(page, 'マイナンバーカードで本人確認へ進む')).toBeEnabled();
  await expectNoHorizontalScroll(page);
}

/** 「マイナンバーカードで本人確認へ進む」 → the stand-in's page, which asks who is on the card. */
async function startJpki(journey: Journey): Promise<void> {
  const { page } = journey;
  await act(journey, 'EkycPreparation', 'START_JPKI');
  await page.waitForURL((url) => PROVIDER_PAGES.JPKI_SIGNATURE?.url.test(url.pathname) === true);
  await expect(page.getByRole('group', { name: 'マイナンバーカードの持ち主' })).toBeVisible();
  await expectNoHorizontalScroll(page);
}

/** The screens shown since the stand-in sent the browser back, in order (each perhaps only for a moment). */
function expectShownInOrder(seen: ScreenSeen[], screens: string[]): void {
  const shown = seen.map(({ path, heading, step }) => `${path} ${heading} ${step ?? '-'}`);
  const order = screens.map((screen) => shown.indexOf(screen));
  expect(order, shown.join('\n')).not.toContain(-1);
  expect(order).toEqual([...order].sort((a, b) => a - b));
}

const journeys: Array<{ flow: FlowId; bank: BankCode; completeText: string }> = [
  { flow: 'general', bank: '0587', completeText: '口座開設のお申込みを受け付けました。' },
  { flow: 'child', bank: '0181', completeText: 'お子さまの口座開設のお申込みを受け付けました。' },
];

for (const { flow, bank, completeText } of journeys) {
  test(`${flow} (bank ${bank}): the card of the person entered, back to the return page, which polls, then the application number`, async ({ page }) => {
    test.setTimeout(120_000);
    const seen = await recordScreens(page);
    const journey = await reachIdentityCheck(page, bank, flow);
    await expectBothMethods(journey);
    await startJpki(journey);
    await chooseProviderOutcome(journey, 'jpkiSamePerson');

    const pages = PAGES[flow];
    await expectScreen(page, bank, pages.complete, 'お申込み完了');
    await expect(page.getByText(completeText, { exact: true })).toBeVisible();
    await expect(page.locator('dl.receipt dd').first()).toHaveText(new RegExp(`^${bank}-\\d{6}-\\d{6}$`));
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await expectNoHorizontalScroll(page);
    expectShownInOrder(seen, [
      `${pages.preparation} ${pages.heading} ${pages.step}`,
      `${pages.callback} 本人確認書類の確認中 ${stepTextOf(flow, pages.callback)}`,
      `${pages.redirect} お申込みを受け付けています -`,
      `${pages.complete} お申込み完了 -`,
    ]);
  });
}

test('general (bank 0177): the card of another person is refused, /ekyc-error, and 「本人確認をやり直す」 leads back to both methods', async ({ page }) => {
  test.setTimeout(120_000);
  const bank: BankCode = '0177';
  const journey = await reachIdentityCheck(page, bank, 'general');
  await expectBothMethods(journey);
  await startJpki(journey);
  await chooseProviderOutcome(journey, 'jpkiOtherPerson');

  // The return page polls, gets the rejection and leads to the error page (its words are the error page's own).
  await expect(page).toHaveURL(bankUrl(bank, '/ekyc-error'));
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByRole('alert')).not.toHaveText('');
  await expectNoHorizontalScroll(page);
  await walk(journey, [['EkycError', 'RETRY', '/ekyc-preparation']]);
  await expectBothMethods(journey);
});
