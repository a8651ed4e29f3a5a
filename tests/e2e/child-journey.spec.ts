import { expect, test, type Page } from '@playwright/test';
import { act, chooseProviderOutcome, openJourney, reachPersonal, stepTextOf, walk, type Journey } from './drivers';
import { birthdayOf, childApplicants, tokyoToday, validInvitationCode, type ChildApplicant } from './drivers/applicants';
import { fillChildPersonal, fillParent } from './drivers/forms';
import { documentPhoto, ONE_MIB, readUploads, watchUploads } from './drivers/photos';
import {
  bankCodes,
  bankUrl,
  byLabel,
  chooseBirthday,
  expectNoHorizontalScroll,
  expectScreen,
  groupOf,
  readSummarySections,
  recordScreens,
  type BankCode,
} from './support';

/**
 * The child flow in the browser (spec sections 2, 5 and 9): a parent applies for a child under
 * 18 on a phone, from /child/before-check to /child/complete, for each bank; then the child
 * and parent rules at their fields, the supplementary document checks, and a deep link.
 */

// The narrowest phone the service supports.
test.use({ viewport: { width: 360, height: 740 } });

const TOTAL_STEPS = 12;
const CHILD_AGE = '生まれていない又は18歳以上の方はお申込みできません。';
const PARENT_UNDER_18 = '18歳未満の方は親権者としてお申込みできません。';
const PARENT_SURNAME = '親権者さまとお子さまの姓が異なっています。';
const PARENT_KANA_SURNAME = '親権者さまとお子さまの姓(セイ)が異なっています。';
const INVITATION_NOT_FOUND = '該当する紹介コードがありません。正しく入力されているかご確認ください。';

/** One page of the journey: where it is, what it shows, and what the applicant does there. */
interface Stop {
  path: string;
  heading: string;
  /** Step of the 12 (spec section 2); none before the forms. */
  step?: number;
  events: ReadonlyArray<readonly [screen: string, event: string, form?: string]>;
}

const JOURNEY: readonly Stop[] = [
  { path: '/child/before-check', heading: 'お申込み前のご確認', events: [['ChildBeforeCheck', 'NEXT']] },
  { path: '/child/term', heading: '規定への同意', events: [['ChildTerm', 'NEXT']] },
  { path: '/child/verification', heading: 'メールアドレスの登録', events: [['Verification', 'CODE_SENT'], ['Verification', 'NEXT']] },
  { path: '/child/personal', heading: 'お子さまの情報の入力', step: 1, events: [['FormStep', 'NEXT', 'personal']] },
  { path: '/child/parent', heading: '親権者さまの情報の入力', step: 2, events: [['FormStep', 'NEXT', 'parent']] },
  { path: '/child/branch', heading: 'お取引店の選択', step: 3, events: [['FormStep', 'NEXT', 'branch']] },
  { path: '/child/confirmation', heading: '入力内容の確認', step: 4, events: [['Confirmation', 'NEXT']] },
  { path: '/child/pin', heading: '暗証番号の設定', step: 5, events: [['Pin', 'NEXT']] },
  { path: '/child/ekyc-preparation', heading: '本人確認の準備', step: 6, events: [['ChildEkycPreparation', 'NEXT']] },
  { path: '/child/ekyc-identification-documents', heading: 'お子さまのマイナンバーカードの撮影', step: 7, events: [['IdentificationDocuments', 'NEXT']] },
  { path: '/child/ekyc-supplementary-documents', heading: '補完書類の撮影', step: 9, events: [['SupplementaryDocuments', 'NEXT']] },
  { path: '/child/parent-ekyc-preparation', heading: '親権者さまの本人確認', step: 12, events: [['EkycPreparation', 'START_EKYC']] },
];

const stepOf = (step: number | undefined) => (step === undefined ? undefined : { step, of: TOTAL_STEPS });

const dateText = ({ birthday }: { birthday: { year: string; month: string; day: string } }) =>
  `${birthday.year}年${birthday.month}月${birthday.day}日`;

/**
 * /child/confirmation: the child's section (with the child's occupation and invitation code:
 * a child has no workplace), then the parent's, as entered.
 */
async function expectChildConfirmation(journey: Journey, { child, parent }: ChildApplicant, invitationCode = '未入力'): Promise<void> {
  const sections = await readSummarySections(journey.page);
  // No お届け印: the child flow asks no seal choice.
  expect(Object.keys(sections)).toEqual(['お子さまの情報', '親権者さまの情報', 'お取引店']);
  expect(sections['お子さまの情報']).toMatchObject({
    メールアドレス: journey.memo.mailAddress,
    お名前: `${child.lastName}　${child.firstName}`,
    'お名前（フリガナ）': `${child.kanaLastName} ${child.kanaFirstName}`,
    生年月日: expect.stringMatching(new RegExp(`^${dateText(child)}（(平成|令和)(元|\\d+)年）$`)),
    性別: child.gender,
    ご住所: `${child.address} / ${child.subAddress}`,
    ご職業: child.occupation,
    紹介コード: invitationCode,
  });
  expect(sections['親権者さまの情報']).toEqual({
    お名前: `${parent.lastName}　${parent.firstName}`,
    'お名前（フリガナ）': `${parent.kanaLastName} ${parent.kanaFirstName}`,
    続柄: parent.relationship,
    生年月日: expect.stringMatching(new RegExp(`^${dateText(parent)}（(昭和|平成)(元|\\d+)年）$`)),
    携帯電話番号: parent.mobile.join('-'),
    自宅電話番号: 'なし',
    代理申込の理由: 'お子さまが未成年のため',
    ご職業: parent.occupation,
    お勤め先名: parent.workplace?.name ?? '未入力',
    お勤め先電話番号: parent.workplace?.phone.join('-') ?? '未入力',
  });
}

/** The two photos as the page sent them: the card as taken, the 12 MP certificate compressed. */
async function expectUploads(page: Page, supplementaryType: string): Promise<void> {
  const [card, paper] = await Promise.all([documentPhoto(page, 'card'), documentPhoto(page, 'paper')]);
  expect(card.length).toBeLessThanOrEqual(ONE_MIB);
  expect(paper.length).toBeGreaterThan(ONE_MIB);
  const uploads = await readUploads(page);
  expect(uploads).toEqual([
    { documentType: 'INDIVIDUAL_NUMBER_CARD', size: card.length, type: 'image/jpeg', width: 1600, height: 1000, head: [0xff, 0xd8, 0xff] },
    // Scaled from 4000 x 3000 to fit 1920 x 1080, re-encoded as a JPEG of at most 1 MiB.
    { documentType: supplementaryType, size: expect.any(Number), type: 'image/jpeg', width: 1440, height: 1080, head: [0xff, 0xd8, 0xff] },
  ]);
  expect(uploads[1]?.size).toBeLessThanOrEqual(ONE_MIB);
}

for (const bank of bankCodes) {
  test(`bank ${bank}: a parent applies for a child on a phone, from /child/before-check to /child/complete`, async ({ page }) => {
    test.setTimeout(120_000);
    const applicant = childApplicants[bank];
    const seen = await recordScreens(page);
    await watchUploads(page);
    const journey = await openJourney(page, bank, 'child');

    for (const stop of JOURNEY) {
      await expectScreen(page, bank, stop.path, stop.heading, stepOf(stop.step));
      if (stop.path === '/child/confirmation') await expectChildConfirmation(journey, applicant);
      // The camera button opens the rear camera on a phone.
      if (stop.path === '/child/ekyc-identification-documents') {
        await expect(page.getByLabel('マイナンバーカードを撮影する', { exact: true })).toHaveAttribute('capture', 'environment');
      }
      if (stop.path === '/child/parent-ekyc-preparation') {
        await expectUploads(page, applicant.supplementary === '住民票の写し' ? 'CERTIFICATE_RESIDENCE' : 'MATERNITY_HANDBOOK');
      }
      await expectNoHorizontalScroll(page);
      for (const [screen, event, form] of stop.events) await act(journey, screen, event, form);
    }
    await chooseProviderOutcome(journey, 'approve');

    // The return page polls, /child/redirect completes, /child/complete shows this bank's number.
    await expectScreen(page, bank, '/child/complete', 'お申込み完了');
    await expect(page.getByText('お子さまの口座開設のお申込みを受け付けました。')).toBeVisible();
    await expect(page.locator('dl.receipt dd').first()).toHaveText(new RegExp(`^${bank}-\\d{6}-\\d{6}$`));
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await expectNoHorizontalScroll(page);
    // The pages between the provider and /child/complete, each shown only for a moment.
    const shown = seen.map(({ path, heading, step }) => `${path} ${heading} ${step ?? '-'}`);
    const order = [
      `/child/ekyc-callback 本人確認書類の確認中 ${stepTextOf('child', '/child/ekyc-callback')}`,
      '/child/redirect お申込みを受け付けています -',
      '/child/complete お申込み完了 -',
    ].map((screen) => shown.indexOf(screen));
    expect(order, shown.join('\n')).not.toContain(-1);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });
}

/**
 * The page's clock is fixed (timers keep running) at 15 June of this year in Japan, so the
 * day after "today" and the 17-year-old parent's birthday are in the year lists whatever day
 * the test runs (on 31 December they would not be). The server keeps the real date: the
 * refused data never reaches it, and what it gets is valid on either day.
 */
async function fixPageDay(page: Page) {
  const year = tokyoToday().year;
  await page.clock.setFixedTime(new Date(`${year}-06-15T12:00:00+09:00`));
  return year;
}

test('/child/personal: a child born tomorrow or aged 18 is refused, and a birthday change clears an occupation of another age', async ({ page }) => {
  const year = await fixPageDay(page);
  const bank: BankCode = '0177';
  const { child } = childApplicants[bank];
  await reachPersonal(page, bank, 'child');
  await fillChildPersonal(page, child);
  const next = page.getByRole('button', { name: '次へ', exact: true });
  const occupation = byLabel(page, 'ご職業');
  // Each message is the description of its field (the live region its aria-describedby names).
  const birthdayGroup = groupOf(page, '生年月日');

  // Born tomorrow (16 June), then 18 today (born 15 June 18 years ago): the spec's message.
  for (const birthday of [{ year, month: 6, day: 16 }, { year: year - 18, month: 6, day: 15 }]) {
    await chooseBirthday(page, birthdayOf(birthday));
    await next.click();
    await expect(birthdayGroup).toHaveAccessibleDescription(CHILD_AGE);
    await expect(page).toHaveURL(bankUrl(bank, '/child/personal'));
  }
  // One day short of 18: the message goes.
  await chooseBirthday(page, birthdayOf({ year: year - 18, month: 6, day: 16 }));
  await expect(birthdayGroup).toHaveAccessibleDescription('');

  // 小学生 (6 to 12) for a 9-year-old; at 16 it is no longer offered and the choice is cleared.
  await chooseBirthday(page, birthdayOf({ year: year - 9, month: 4, day: 2 }));
  await occupation.selectOption({ label: '小学生' });
  await chooseBirthday(page, birthdayOf({ year: year - 16, month: 4, day: 2 }));
  await expect(occupation).toHaveValue('');
  await expect(occupation.getByRole('option', { name: '小学生' })).toHaveCount(0);
  await expect(occupation.getByRole('option', { name: '高校生' })).toHaveCount(1);
  await next.click();
  await expect(occupation).toHaveAccessibleDescription('選択が必須です。');
  await expect(occupation).toBeFocused();
  await occupation.selectOption({ label: '高校生' });
  await next.click();
  await expect(page).toHaveURL(bankUrl(bank, '/child/parent'));
});

test('/child/personal: the invitation code of the bank\'s link is applied on arrival and confirmed; an unknown one is not found', async ({ page }) => {
  const bank: BankCode = '0181';
  const code = validInvitationCode(bank);
  const journey = await reachPersonal(page, bank, 'child', `?invitation=${code}`);
  const invitation = byLabel(page, '紹介コード');
  await expect(invitation).toHaveValue(code);
  await expect(invitation).toHaveAttribute('readonly', '');
  await expect(page.getByText('紹介コードを適用しました。')).toBeVisible();
  await walk(journey, [
    ['FormStep', 'NEXT', '/child/parent', 'personal'],
    ['FormStep', 'NEXT', '/child/branch', 'parent'],
    ['FormStep', 'NEXT', '/child/confirmation', 'branch'],
  ]);
  await expectChildConfirmation(journey, childApplicants[bank], code);

  // A code the bank does not know: the spec's message at once, and 次へ stops at the code.
  const again = await reachPersonal(page, bank, 'child', '?invitation=NOPE99');
  const unknown = byLabel(page, '紹介コード');
  await expect(unknown).toHaveAccessibleDescription(new RegExp(INVITATION_NOT_FOUND));
  await expect(unknown).toHaveAttribute('aria-invalid', 'true');
  await act(again, 'FormStep', 'NEXT', 'personal');
  await expect(unknown).toBeFocused();
  await expect(page).toHaveURL(bankUrl(bank, '/child/personal'));
});

test('/child/parent: the surname and its kana must be the child\'s, and a parent aged 17 is refused', async ({ page }) => {
  const year = await fixPageDay(page);
  const bank: BankCode = '0587';
  const { parent } = childApplicants[bank];
  const journey = await reachPersonal(page, bank, 'child');
  await walk(journey, [['FormStep', 'NEXT', '/child/parent', 'personal']]);
  const next = page.getByRole('button', { name: '次へ', exact: true });
  // Each message is the description of its field (the live region its aria-describedby names).
  const lastName = byLabel(page, 'お名前（姓）');
  const kanaLastName = byLabel(page, 'フリガナ（セイ）');
  const birthdayGroup = groupOf(page, '生年月日');

  // Another surname and kana: both messages of the spec, each at its field. The kana is not the
  // reading the server suggests for 山田, so it stays the applicant's own when the name changes.
  await fillParent(page, { ...parent, lastName: '山田', kanaLastName: 'ﾔﾏﾓﾄ' });
  await next.click();
  await expect(lastName).toHaveAccessibleDescription(PARENT_SURNAME);
  await expect(kanaLastName).toHaveAccessibleDescription(PARENT_KANA_SURNAME);
  await expect(lastName).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(bankUrl(bank, '/child/parent'));
  // Only the kana differs now.
  await lastName.fill(parent.lastName);
  await next.click();
  await expect(lastName).toHaveAccessibleDescription('');
  await expect(kanaLastName).toHaveAccessibleDescription(PARENT_KANA_SURNAME);
  await kanaLastName.fill(parent.kanaLastName);

  // 18 tomorrow: still 17 today.
  await chooseBirthday(page, birthdayOf({ year: year - 18, month: 6, day: 16 }));
  await next.click();
  await expect(birthdayGroup).toHaveAccessibleDescription(PARENT_UNDER_18);
  await expect(kanaLastName).toHaveAccessibleDescription('');
  await expect(page).toHaveURL(bankUrl(bank, '/child/parent'));
  // 18 today: the message goes.
  await chooseBirthday(page, birthdayOf({ year: year - 18, month: 6, day: 15 }));
  await expect(birthdayGroup).toHaveAccessibleDescription('');
  // Posted with a birthday the server (on the real day) accepts too: on to /child/branch.
  await chooseBirthday(page, parent.birthday);
  await next.click();
  await expect(page).toHaveURL(bankUrl(bank, '/child/branch'));
});

test('/child/ekyc-supplementary-documents: upload only once the three checks of the chosen document are ticked', async ({ page }) => {
  const bank: BankCode = '0181';
  const journey = await reachPersonal(page, bank, 'child');
  await walk(journey, [
    ['FormStep', 'NEXT', '/child/parent', 'personal'],
    ['FormStep', 'NEXT', '/child/branch', 'parent'],
    ['FormStep', 'NEXT', '/child/confirmation', 'branch'],
    ['Confirmation', 'NEXT', '/child/pin'],
    ['Pin', 'NEXT', '/child/ekyc-preparation'],
    ['ChildEkycPreparation', 'NEXT', '/child/ekyc-identification-documents'],
    ['IdentificationDocuments', 'NEXT', '/child/ekyc-supplementary-documents'],
  ]);
  const photo = { name: 'IMG_0103.jpg', mimeType: 'image/jpeg', buffer: await documentPhoto(page, 'card') };
  const upload = page.getByRole('button', { name: 'この写真でアップロード' });
  const checks: Record<string, string[]> = {
    住民票の写し: ['発行から6か月以内である', '本籍・個人番号の記載が省略されている', '文字がはっきり読める'],
    母子健康手帳: ['ページ全体が写っている', '出生届出済証明の印が写っている', '文字がはっきり読める'],
  };

  // Nothing to photograph until a document is chosen.
  await expect(page.getByLabel(/を撮影する$/)).toHaveCount(0);
  for (const document of ['住民票の写し', '母子健康手帳']) {
    await page.getByLabel(document, { exact: true }).check();
    await page.getByLabel(`${document}を撮影する`, { exact: true }).setInputFiles(photo);
    await expect(page.getByRole('img', { name: `撮影した${document}` })).toBeVisible();
    const boxes = page.getByRole('group', { name: /^確認事項/ }).getByRole('checkbox');
    await expect(boxes).toHaveCount(3);
    for (const text of checks[document] ?? []) {
      await expect(upload).toBeDisabled();
      await expect(page.getByText('確認事項にすべてチェックすると、アップロードできます。')).toBeVisible();
      await page.getByLabel(text, { exact: true }).check();
    }
    await expect(upload).toBeEnabled();
    // Unticking one closes the upload again.
    await page.getByLabel('文字がはっきり読める', { exact: true }).uncheck();
    await expect(upload).toBeDisabled();
    await page.getByLabel('文字がはっきり読める', { exact: true }).check();
    await expect(upload).toBeEnabled();
  }
  await expectNoHorizontalScroll(page);
  await upload.click();
  await expectScreen(page, bank, '/child/parent-ekyc-preparation', '親権者さまの本人確認', { step: 12, of: TOTAL_STEPS });
});

test('a deep link into the middle of the child flow lands on /child/error, whose button starts again', async ({ page }) => {
  // Opened cold, and in the middle of an application, skipping the pages between.
  await page.goto(bankUrl('0181', '/child/ekyc-identification-documents'));
  await expectScreen(page, '0181', '/child/error', 'エラー');
  const journey = await reachPersonal(page, '0587', 'child');
  await page.goto(bankUrl('0587', '/child/confirmation'));
  await expectScreen(page, '0587', '/child/error', 'エラー');
  await expect(page.getByText('申し訳ございません。システムエラーが発生しました。しばらく時間をおいてから再度お試しください。')).toBeVisible();
  await act(journey, 'SystemError', 'RESTART');
  await expectScreen(page, '0587', '/child/before-check', 'お申込み前のご確認');
});
