import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { reachPersonal, walk } from '../../e2e/drivers';
import { generalApplicants, validInvitationCode } from '../../e2e/drivers/applicants';
import { spec } from '../spec';
import { bankCodes, bankUrl, byLabel, errorOf, expectNoHorizontalScroll, groupOf, readSummary, type BankCode } from '../../e2e/support';

// The narrowest phone the service supports.
test.use({ viewport: { width: 360, height: 740 } });

/** The bank's own master data, as the server loads it (banks/<code>/*.json). */
interface MasterWorkplace {
  code: string;
  name: string;
  phoneNumber: string;
  multipleAccounts: string;
}
interface MasterBranch {
  code: string;
  name: string;
  address: string;
}

function masterData<T>(bank: BankCode, file: string, key: string): T[] {
  const json = JSON.parse(readFileSync(new URL(`../../../banks/${bank}/${file}.json`, import.meta.url), 'utf8')) as Record<string, T[]>;
  return json[key] ?? [];
}

function fixturesOf(bank: BankCode) {
  const workplaces = masterData<MasterWorkplace>(bank, 'workplaces', 'workplaces');
  const branches = masterData<MasterBranch>(bank, 'branches', 'branches');
  const permitted = workplaces.find((w) => w.multipleAccounts === 'PERMITTED');
  const notPermitted = workplaces.find((w) => w.multipleAccounts !== 'PERMITTED');
  const invitation = validInvitationCode(bank);
  if (!permitted || !notPermitted || branches.length < 2) throw new Error(`banks/${bank}: master data for the journey is missing`);
  return { permitted, notPermitted, invitation, branches };
}

const WORKPLACE_NOT_FOUND = '該当するコードがありません。正しく入力されているかご確認ください。';
const INVITATION_NOT_FOUND = '該当する紹介コードがありません。正しく入力されているかご確認ください。';
const CONFIRM_CODE = '「適用」または「クリア」でコードを確定してください。';
const REMINDER = '勤務先コードまたは紹介コードの入力をお忘れではありませんか？';
const SEAL_NONE = '印鑑を登録しない';
const SEAL_REGISTER = '印鑑を登録する（お届け印の登録手続きは別途郵送でご案内します）';

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
/** 「適用」/「クリア」 of a code; their names end with the code's name for screen readers. */
const codeButton = (page: Page, action: '適用' | 'クリア', code: '勤務先コード' | '紹介コード') =>
  page.getByRole('button', { name: new RegExp(`^${action}\\s*（${code}）$`) });

/** Full width as an IME would type it: the page must make it half width. */
const fullWidth = (text: string) => text.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));

interface StepChoices {
  /** How the codes come in: with the bank's link (landing URL, applied for the applicant), or typed. */
  codes: 'link' | 'typed';
  occupation: string;
  occupationOther?: string;
  workplace: 'permitted' | 'notPermitted';
  /** For a workplace that permits it: the account held already, as typed (zero-padded when sent). */
  existingAccount?: { branch: string; account: string; padded: string };
  branchIndex: number;
  sealLess: boolean;
  /** Purposes as the summary lists them. */
  purposesShown: string;
  postalShown: string;
}

const JOURNEYS: Record<BankCode, StepChoices> = {
  '0177': {
    codes: 'link',
    occupation: '会社員',
    workplace: 'permitted',
    existingAccount: { branch: '12', account: '3456', padded: '店番 012　口座番号 0003456' },
    branchIndex: 1,
    sealLess: true,
    purposesShown: '給与・年金受取 / 貯蓄・資産運用',
    postalShown: '810-0001',
  },
  '0587': {
    codes: 'typed',
    occupation: '公務員',
    workplace: 'notPermitted',
    branchIndex: 2,
    sealLess: false,
    purposesShown: '生計費決済',
    postalShown: '860-0046',
  },
  '0181': {
    codes: 'typed',
    occupation: 'その他',
    occupationOther: '個人事業主',
    workplace: 'permitted',
    branchIndex: 0,
    sealLess: true,
    purposesShown: '給与・年金受取',
    postalShown: '850-0853',
  },
};

async function applyCode(page: Page, label: '勤務先コード' | '紹介コード', code: string) {
  const input = byLabel(page, label);
  await input.fill(code);
  await codeButton(page, '適用', label).click();
  await expect(input).toHaveAttribute('readonly', '');
}

for (const bank of bankCodes) {
  test(spec('§2 Route overview', `bank ${bank}: from /term to /confirmation, and the summary is what was typed`), async ({ page }) => {
    const journey = JOURNEYS[bank];
    const { permitted, notPermitted, invitation, branches } = fixturesOf(bank);
    const workplace = journey.workplace === 'permitted' ? permitted : notPermitted;
    const branch = branches[journey.branchIndex] ?? branches[0];
    if (!branch) throw new Error('no branch');

    const landing = journey.codes === 'link' ? `?workplace=${workplace.code}&invitation=${invitation}` : '';
    // Which pages read the stored application: none; the first opens with verify's answer, each later one with the answer of the step before it (ADR 0042).
    const reads: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'GET' && new URL(request.url()).pathname === '/api/applications') reads.push(new URL(page.url()).pathname);
    });
    const applicant = await reachPersonal(page, bank, 'general', landing);
    await walk(applicant, [['FormStep', 'NEXT', '/workplace', 'personal']]);
    const { mailAddress } = applicant.memo;

    // ---------- /workplace (2/7) ----------
    await expect(page.getByText('ステップ 2/7')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('ご職業・お勤め先の入力');
    await byLabel(page, 'ご職業').selectOption({ label: journey.occupation });
    if (journey.occupationOther) await byLabel(page, 'ご職業（その他）').fill(journey.occupationOther);
    if (journey.codes === 'link') {
      // Applied for the applicant from the bank's link: locked, and no reminder.
      await expect(byLabel(page, '勤務先コード')).toHaveValue(workplace.code);
      await expect(byLabel(page, '勤務先コード')).toHaveAttribute('readonly', '');
      await expect(byLabel(page, '紹介コード')).toHaveValue(invitation);
      await expect(byLabel(page, '紹介コード')).toHaveAttribute('readonly', '');
      await expect(page.getByText(REMINDER)).toHaveCount(0);
    } else {
      // Nothing came with the link: the reminder stays until closed.
      await expect(page.getByText(REMINDER)).toBeVisible();
      await page.locator('.toast').getByRole('button', { name: '閉じる' }).click();
      await expect(page.getByText(REMINDER)).toHaveCount(0);
      // Typed in full width and lower case, as a phone keyboard may: half width once left.
      await byLabel(page, '勤務先コード').fill(fullWidth(workplace.code.toLowerCase()));
      await byLabel(page, '紹介コード').focus();
      await expect(byLabel(page, '勤務先コード')).toHaveValue(workplace.code);
      await codeButton(page, '適用', '勤務先コード').click();
      await expect(byLabel(page, '勤務先コード')).toHaveAttribute('readonly', '');
      await applyCode(page, '紹介コード', invitation);
    }
    await expect(byLabel(page, 'お勤め先名')).toHaveValue(workplace.name);
    await expect(byLabel(page, 'お勤め先名')).toHaveAttribute('readonly', '');
    await expect(byLabel(page, 'お勤め先名')).toHaveAttribute('autocomplete', 'organization');
    const phone = groupOf(page, 'お勤め先電話番号').getByRole('textbox');
    await expect(phone.nth(0)).toHaveValue(workplace.phoneNumber.split('-')[0] ?? '');
    await expect(phone.nth(2)).toHaveValue(workplace.phoneNumber.split('-')[2] ?? '');
    const accountSection = groupOf(page, 'お持ちの口座がありますか');
    if (journey.workplace === 'permitted') {
      if (journey.existingAccount) {
        await accountSection.getByText('はい', { exact: true }).click();
        await accountSection.getByLabel(/^店番/).fill(journey.existingAccount.branch);
        await accountSection.getByLabel(/^口座番号/).fill(journey.existingAccount.account);
      } else {
        await accountSection.getByText('いいえ', { exact: true }).click();
      }
    } else {
      await expect(accountSection).toHaveCount(0);
    }
    await expectNoHorizontalScroll(page);
    await button(page, '次へ').click();

    // ---------- /branch (3/7) ----------
    await expect(page).toHaveURL(bankUrl(bank, '/branch'));
    await expect(page.getByText('ステップ 3/7')).toBeVisible();
    const branchGroup = groupOf(page, 'お取引店');
    await expect(branchGroup.getByRole('radio')).toHaveCount(branches.length);
    await expect(branchGroup.getByText(branch.address)).toBeVisible();
    // The whole card is the tap target.
    const card = branchGroup.locator('label', { hasText: branch.name });
    expect((await card.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
    await card.click();
    await expectNoHorizontalScroll(page);
    await button(page, '次へ').click();

    // ---------- /seal-less (4/7) ----------
    await expect(page).toHaveURL(bankUrl(bank, '/seal-less'));
    await expect(page.getByText('ステップ 4/7')).toBeVisible();
    await groupOf(page, 'お届け印の登録').getByText(journey.sealLess ? SEAL_NONE : SEAL_REGISTER, { exact: true }).click();
    await expectNoHorizontalScroll(page);
    await button(page, '入力内容を確認する').click();

    // ---------- /confirmation (5/7) ----------
    await expect(page).toHaveURL(bankUrl(bank, '/confirmation'));
    await expect(page.getByText('ステップ 5/7')).toBeVisible();
    const { person } = generalApplicants[bank];
    const [mobile1, mobile2, mobile3] = person.mobile;
    expect(await readSummary(page)).toEqual({
      メールアドレス: mailAddress,
      お名前: `${person.lastName}　${person.firstName}`,
      'お名前（フリガナ）': `${person.kanaLastName} ${person.kanaFirstName}`,
      生年月日: expect.stringMatching(new RegExp(`^${person.birthday.year}年${person.birthday.month}月${person.birthday.day}日（(昭和|平成)\\d+年）$`)),
      性別: person.gender,
      携帯電話番号: `${mobile1}-${mobile2}-${mobile3}`,
      自宅電話番号: 'なし',
      郵便番号: journey.postalShown,
      ご住所: `${person.address} / ${person.subAddress}`,
      'ご住所（フリガナ）': expect.stringMatching(new RegExp(` ${person.kanaSubAddress}$`)),
      口座のご利用目的: journey.purposesShown,
      ご職業: journey.occupationOther ? `${journey.occupation}（${journey.occupationOther}）` : journey.occupation,
      勤務先コード: workplace.code,
      お勤め先名: workplace.name,
      お勤め先電話番号: workplace.phoneNumber,
      ...(journey.existingAccount ? { お持ちの口座: journey.existingAccount.padded } : {}),
      紹介コード: invitation,
      お取引店: `${branch.name}（店番 ${branch.code}）`,
      お届け印の登録: journey.sealLess ? SEAL_NONE : SEAL_REGISTER,
    });
    await expect(page.locator('dl.summary__list')).toHaveCount(4);
    expect(reads).toEqual([]);
    await expectNoHorizontalScroll(page);
    await page.getByLabel('ご住所が本人確認書類の住所と一致していることを確認しました').check();
    await button(page, '申し込む').click();
    await expect(page).toHaveURL(bankUrl(bank, '/pin'));
    // The PIN page checks against the application the summary showed.
    await expect(byLabel(page, '暗証番号')).toBeVisible();
    expect(reads).toEqual([]);
  });
}

test(spec('§2 /workplace', 'each message of /workplace at its field, and the values survive going to /branch and back'), async ({ page }) => {
  const { permitted, invitation } = fixturesOf('0177');
  await walk(await reachPersonal(page, '0177'), [['FormStep', 'NEXT', '/workplace', 'personal']]);
  const next = button(page, '次へ');

  // Nothing chosen.
  await next.click();
  await expect(errorOf(page, 'occupationId')).toHaveText('選択が必須です。');
  await expect(byLabel(page, 'ご職業')).toBeFocused();

  // 会社員 needs a workplace; その他 needs its text.
  await byLabel(page, 'ご職業').selectOption({ label: 'その他' });
  await next.click();
  await expect(errorOf(page, 'occupationOther')).toHaveText('入力が必須です。');
  await byLabel(page, 'ご職業').selectOption({ label: '会社員' });
  await next.click();
  await expect(errorOf(page, 'workplaceName')).toHaveText('入力が必須です。');
  await expect(errorOf(page, 'workplacePhoneNumber')).toHaveText('入力が必須です。');
  await expect(byLabel(page, 'お勤め先名')).toBeFocused();

  // Forbidden symbols and roman numerals in the name, a phone cut short.
  await byLabel(page, 'お勤め先名').fill('㈱テスト＊商事');
  await byLabel(page, 'ご職業').focus();
  await expect(byLabel(page, 'お勤め先名')).toHaveValue('株式会社テスト＊商事');
  await expect(errorOf(page, 'workplaceName')).toHaveText('＊は使用できません。');
  await byLabel(page, 'お勤め先名').fill('第Ⅱ工業');
  const phone = groupOf(page, 'お勤め先電話番号').getByRole('textbox');
  await phone.nth(0).fill('092');
  await phone.nth(1).fill('12');
  await next.click();
  await expect(errorOf(page, 'workplaceName')).toHaveText('数字を変換してください。（例：「Ⅰ Ⅱ Ⅲ」→「1 2 3」）');
  await expect(errorOf(page, 'workplacePhoneNumber')).toHaveText('勤務先電話番号を正しく入力してください。');

  // Codes: typed but not applied; not found (server and length); a wrong invitation code.
  await byLabel(page, '勤務先コード').fill('ZZ9999');
  await byLabel(page, '紹介コード').fill(invitation);
  await next.click();
  await expect(errorOf(page, 'workplaceId')).toHaveText(CONFIRM_CODE);
  await expect(errorOf(page, 'invitationCode')).toHaveText(CONFIRM_CODE);
  // Not found: said, with how to go on (「適用」 again or 「クリア」).
  await codeButton(page, '適用', '勤務先コード').click();
  await expect(errorOf(page, 'workplaceId')).toHaveText(WORKPLACE_NOT_FOUND + CONFIRM_CODE);
  await byLabel(page, '勤務先コード').fill('1234567');
  await codeButton(page, '適用', '勤務先コード').click();
  await expect(errorOf(page, 'workplaceId')).toHaveText(WORKPLACE_NOT_FOUND + CONFIRM_CODE);
  await byLabel(page, '紹介コード').fill('NOPE99');
  await codeButton(page, '適用', '紹介コード').click();
  await expect(errorOf(page, 'invitationCode')).toHaveText(INVITATION_NOT_FOUND + CONFIRM_CODE);
  await codeButton(page, 'クリア', '紹介コード').click();
  await expect(errorOf(page, 'invitationCode')).toHaveText('');

  // The workplace that permits an existing account: the section and its message.
  await applyCode(page, '勤務先コード', permitted.code);
  await expect(errorOf(page, 'workplaceId')).toHaveText('');
  await expect(byLabel(page, 'お勤め先名')).toHaveValue(permitted.name);
  const accountSection = groupOf(page, 'お持ちの口座がありますか');
  await next.click();
  await expect(errorOf(page, 'existedAccountBranchCode')).toHaveText('選択が必須です。');
  await accountSection.getByText('はい', { exact: true }).click();
  await accountSection.getByLabel(/^店番/).fill('1a');
  await accountSection.getByLabel(/^口座番号/).fill('7654321');
  await next.click();
  await expect(errorOf(page, 'existedAccountBranchCode')).toHaveText('店番・口座番号を正しく入力してください。');
  await expect(accountSection.getByLabel(/^店番/)).toBeFocused();
  await accountSection.getByLabel(/^店番/).fill('5');
  await applyCode(page, '紹介コード', invitation);
  await expectNoHorizontalScroll(page);
  await next.click();
  await expect(page).toHaveURL(bankUrl('0177', '/branch'));

  // Back: everything as entered, the codes still applied.
  await button(page, '戻る').click();
  await expect(page).toHaveURL(bankUrl('0177', '/workplace'));
  await expect(byLabel(page, 'ご職業')).toHaveValue(/.+/);
  await expect(byLabel(page, 'ご職業').locator('option:checked')).toHaveText('会社員');
  await expect(byLabel(page, '勤務先コード')).toHaveValue(permitted.code);
  await expect(byLabel(page, '勤務先コード')).toHaveAttribute('readonly', '');
  await expect(byLabel(page, 'お勤め先名')).toHaveValue(permitted.name);
  await expect(accountSection.getByLabel('はい', { exact: true })).toBeChecked();
  await expect(accountSection.getByLabel(/^店番/)).toHaveValue('005');
  await expect(accountSection.getByLabel(/^口座番号/)).toHaveValue('7654321');
  await expect(byLabel(page, '紹介コード')).toHaveValue(invitation);
  await expect(byLabel(page, '紹介コード')).toHaveAttribute('readonly', '');
  await expect(page.getByText(REMINDER)).toHaveCount(0);

  // 「クリア」 unlocks and empties the workplace fields.
  await codeButton(page, 'クリア', '勤務先コード').click();
  await expect(byLabel(page, '勤務先コード')).toHaveValue('');
  await expect(byLabel(page, 'お勤め先名')).toHaveValue('');
  await expect(byLabel(page, 'お勤め先名')).not.toHaveAttribute('readonly', '');
  await expect(accountSection).toHaveCount(0);
});

test(spec('§2 /branch, /seal-less, /confirmation', 'each asks for its answer, and 戻る keeps every choice'), async ({ page }) => {
  const { branches } = fixturesOf('0587');
  const chosen = branches[1];
  if (!chosen) throw new Error('no branch');
  await walk(await reachPersonal(page, '0587'), [['FormStep', 'NEXT', '/workplace', 'personal']]);
  await byLabel(page, 'ご職業').selectOption({ label: '学生' });
  await button(page, '次へ').click();

  await expect(page).toHaveURL(bankUrl('0587', '/branch'));
  await button(page, '次へ').click();
  await expect(errorOf(page, 'branchCode')).toHaveText('選択が必須です。');
  await expect(groupOf(page, 'お取引店').getByRole('radio').first()).toBeFocused();
  await groupOf(page, 'お取引店').getByText(chosen.name, { exact: true }).click();
  await button(page, '次へ').click();

  await expect(page).toHaveURL(bankUrl('0587', '/seal-less'));
  await button(page, '入力内容を確認する').click();
  await expect(errorOf(page, 'sealLess')).toHaveText('選択が必須です。');
  await groupOf(page, 'お届け印の登録').getByText(SEAL_REGISTER, { exact: true }).click();
  await button(page, '入力内容を確認する').click();

  await expect(page).toHaveURL(bankUrl('0587', '/confirmation'));
  const summary = await readSummary(page);
  expect(summary['ご職業']).toBe('学生');
  expect(summary['お勤め先名']).toBe('未入力');
  expect(summary['紹介コード']).toBe('未入力');
  expect(summary['お取引店']).toBe(`${chosen.name}（店番 ${chosen.code}）`);
  await button(page, '申し込む').click();
  await expect(errorOf(page, 'addressConfirmed')).toHaveText('選択が必須です。');
  await expect(page.getByLabel('ご住所が本人確認書類の住所と一致していることを確認しました')).toBeFocused();
  await expect(page).toHaveURL(bankUrl('0587', '/confirmation'));

  // Back, step by step: each choice is still made.
  await button(page, '戻る').click();
  await expect(page).toHaveURL(bankUrl('0587', '/seal-less'));
  await expect(page.getByLabel(SEAL_REGISTER, { exact: true })).toBeChecked();
  await button(page, '戻る').click();
  await expect(page).toHaveURL(bankUrl('0587', '/branch'));
  await expect(groupOf(page, 'お取引店').getByRole('radio', { name: new RegExp(chosen.name) })).toBeChecked();
  await button(page, '戻る').click();
  await expect(page).toHaveURL(bankUrl('0587', '/workplace'));
  await expect(byLabel(page, 'ご職業').locator('option:checked')).toHaveText('学生');
});

test(spec('§2 Navigation guard', 'a page of the steps opened directly (not from its neighbour) goes to the error page'), async ({ page }) => {
  await reachPersonal(page, '0181');
  await page.goto(bankUrl('0181', '/confirmation'));
  await expect(page).toHaveURL(bankUrl('0181', '/error'));
});
