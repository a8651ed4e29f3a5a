import { expect, test, type Page } from '@playwright/test';
import { reachPersonal } from './drivers';
import { bankUrl, byLabel, chooseBirthday, errorOf, expectNoHorizontalScroll, groupOf, typePhone } from './support';

// The narrowest phone the service supports.
test.use({ viewport: { width: 360, height: 740 } });

async function search(page: Page, code: string) {
  await byLabel(page, '郵便番号').fill(code);
  await page.getByRole('button', { name: '住所を検索' }).click();
}

test('the real postal search offers both candidates of 860-0046 and the server suggests furigana', async ({ page }) => {
  await reachPersonal(page, '0177');
  await expectNoHorizontalScroll(page);

  await byLabel(page, 'お名前（姓）').fill('福岡');
  await byLabel(page, 'お名前（名）').focus();
  await expect(byLabel(page, 'フリガナ（セイ）')).toHaveValue('ﾌｸｵｶ');
  // The suggestion can be corrected, and a typed kana is normalised when left.
  await byLabel(page, 'フリガナ（セイ）').fill('ふくおか');
  await byLabel(page, 'フリガナ（メイ）').focus();
  await expect(byLabel(page, 'フリガナ（セイ）')).toHaveValue('ﾌｸｵｶ');

  const postal = byLabel(page, '郵便番号');
  await expect(postal).toHaveAttribute('autocomplete', 'postal-code');
  await expect(postal).toHaveAttribute('inputmode', 'numeric');
  await expect(page.getByRole('button', { name: '住所を検索' })).toBeDisabled();
  await search(page, '8600046');
  await expect(postal).toHaveValue('860-0046');
  const candidates = page.getByRole('group', { name: '住所の候補' });
  await expect(candidates.getByRole('radio')).toHaveCount(2);
  await expect(candidates.getByText('熊本県熊本市中央区横手')).toBeVisible();
  await candidates.getByLabel('熊本県熊本市西区横手').check();
  await expect(page.locator('output')).toHaveText('熊本県熊本市西区横手');
  // Outside 福岡県 at bank 0177: the distance reason is asked for.
  await expect(byLabel(page, '遠隔地でのお取引の理由')).toBeVisible();
  await expectNoHorizontalScroll(page);

  // 「該当する住所がない」: the temporary address starts at the bank's prefecture.
  await page.getByLabel('該当する住所がない').check();
  await expect(byLabel(page, '都道府県')).toHaveValue('福岡県');
  await expect(page.getByRole('button', { name: '住所を検索' })).toHaveCount(0);
});

test('each rule of /personal says its message at its field', async ({ page }) => {
  // The page's clock is fixed (timers keep running) so the under-18 case does not depend on the
  // day the test runs: on 31 December nobody in the year list would be under 18.
  const pageToday = new Date('2026-06-15T10:00:00+09:00');
  await page.clock.setFixedTime(pageToday);
  await reachPersonal(page, '0177');
  const next = page.getByRole('button', { name: '次へ' });

  // Nothing entered: the required messages, focus on the first field.
  await next.click();
  await expect(byLabel(page, 'お名前（姓）')).toBeFocused();
  await expect(errorOf(page, 'lastName')).toHaveText('入力が必須です。');
  await expect(errorOf(page, 'kanaLastName')).toHaveText('入力が必須です。');
  await expect(errorOf(page, 'gender')).toHaveText('選択が必須です。');
  await expect(errorOf(page, 'mobilePhoneNumber')).toHaveText('携帯電話番号を正しく入力してください。');
  // Typed but never searched.
  await byLabel(page, '郵便番号').fill('8100001');
  await next.click();
  await expect(errorOf(page, 'postalNumber')).toHaveText('住所を検索してください');
  await expect(errorOf(page, 'subAddress')).toHaveText('入力が必須です。');
  await expect(errorOf(page, 'utilizationPurpose')).toHaveText('選択が必須です。');
  await expect(errorOf(page, 'birthday')).toHaveText('生年月日を正しく入力してください。');

  // Wrong values, one per rule.
  await byLabel(page, 'お名前（姓）').fill('あ'.repeat(12));
  await byLabel(page, 'お名前（名）').fill(`${'い'.repeat(11)}①`);
  await byLabel(page, 'フリガナ（セイ）').fill('abc');
  await byLabel(page, 'フリガナ（メイ）').fill('ｲｲ');
  // The general year list ends at this year − 18; born 2008-12-31 is 17 on 2026-06-15.
  await chooseBirthday(page, { year: String(pageToday.getFullYear() - 18), month: '12', day: '31' });
  await page.getByText('女性', { exact: true }).click();
  await typePhone(page, '携帯電話番号', ['012', '3456', '7890']);
  await typePhone(page, '自宅電話番号', ['0', '1', '2']);
  await search(page, '8600046');
  await page.getByRole('group', { name: '住所の候補' }).getByLabel('熊本県熊本市中央区横手').check();
  await byLabel(page, '番地・建物名・部屋番号').fill('Ⅲ-1');
  await page.getByLabel('その他', { exact: true }).check();
  // The reason takes at most 50 characters (the server refuses a longer one with 「50文字以内で入力してください。」: tests/product).
  const reason = byLabel(page, '遠隔地でのお取引の理由');
  await reason.fill('あ'.repeat(51));
  await expect(reason).toHaveValue('あ'.repeat(50));
  await expect(page.getByText('50／50文字')).toBeVisible();
  await next.click();

  await expect(errorOf(page, 'lastName')).toHaveText('24文字以内で入力してください。');
  await expect(errorOf(page, 'firstName')).toHaveText('① は使用できません。');
  await expect(errorOf(page, 'kanaLastName')).toHaveText('カタカナで入力してください。');
  await expect(errorOf(page, 'birthday')).toHaveText('18歳未満の方はお申込みできません。');
  await expect(errorOf(page, 'mobilePhoneNumber')).toHaveText('携帯電話番号を正しく入力してください。');
  await expect(errorOf(page, 'phoneNumber')).toHaveText('自宅電話番号を正しく入力してください。');
  await expect(errorOf(page, 'subAddress')).toHaveText('数字を変換してください。（例：「Ⅰ Ⅱ Ⅲ」→「1 2 3」）');
  await expect(errorOf(page, 'kanaSubAddress')).toHaveText('入力が必須です。');
  await expect(errorOf(page, 'utilizationPurposeOther')).toHaveText('「その他」の場合は入力が必須です。');
  await expect(byLabel(page, 'お名前（姓）')).toBeFocused();
  await expect(byLabel(page, 'お名前（姓）')).toHaveAttribute('aria-invalid', 'true');

  // A corrected field loses its message when left.
  await byLabel(page, '番地・建物名・部屋番号').fill('3-1');
  await byLabel(page, '番地・建物名・部屋番号（フリガナ）').focus();
  await expect(errorOf(page, 'subAddress')).toHaveText('');
});

test('what was entered is stored, shown again coming back, and after a reload', async ({ page }) => {
  await reachPersonal(page, '0177');
  await byLabel(page, 'お名前（姓）').fill('福岡');
  await byLabel(page, 'お名前（名）').fill('花子');
  // Leaving each name asks for its furigana: each kana is typed once its suggestion is there, as
  // an applicant sees it (typed while the answer was on its way, the kana could land beside it).
  await expect(byLabel(page, 'フリガナ（セイ）')).toHaveValue('ﾌｸｵｶ');
  await byLabel(page, 'フリガナ（セイ）').fill('フクオカ');
  await expect(byLabel(page, 'フリガナ（メイ）')).toHaveValue('ﾊﾅｺ');
  await byLabel(page, 'フリガナ（メイ）').fill('ハナコ');
  await chooseBirthday(page, { year: '1990', month: '4', day: '1' });
  await page.getByText('女性', { exact: true }).click();
  await typePhone(page, '携帯電話番号', ['０９０', '１２３４', '５６７８']);
  await typePhone(page, '自宅電話番号', ['092', '123', '4567']);
  await search(page, '8100001');
  await expect(page.locator('output')).toHaveText('福岡県福岡市中央区天神');
  await byLabel(page, '番地・建物名・部屋番号').fill('1-2-3 ふくおかマンション101');
  await byLabel(page, '番地・建物名・部屋番号（フリガナ）').fill('1-2-3 ふくおかまんしょん101');
  await page.getByLabel('貯蓄・資産運用', { exact: true }).check();
  await page.getByLabel('その他', { exact: true }).check();
  await byLabel(page, '「その他」のご利用目的').fill('家賃の支払い');
  await page.getByRole('button', { name: '次へ' }).click();
  await expect(page).toHaveURL(bankUrl('0177', '/workplace'));

  await page.goBack();
  await expect(page).toHaveURL(bankUrl('0177', '/personal'));
  const check = async () => {
    await expect(byLabel(page, 'お名前（姓）')).toHaveValue('福岡');
    await expect(byLabel(page, 'フリガナ（メイ）')).toHaveValue('ﾊﾅｺ');
    await expect(groupOf(page, '生年月日').getByLabel('月', { exact: true })).toHaveValue('4');
    await expect(page.getByLabel('女性', { exact: true })).toBeChecked();
    await expect(groupOf(page, '携帯電話番号').getByRole('textbox').nth(0)).toHaveValue('090');
    await expect(groupOf(page, '自宅電話番号').getByRole('textbox').nth(2)).toHaveValue('4567');
    await expect(byLabel(page, '郵便番号')).toHaveValue('810-0001');
    await expect(page.getByRole('radio', { name: '福岡県福岡市中央区天神' })).toBeChecked();
    await expect(byLabel(page, '番地・建物名・部屋番号（フリガナ）')).toHaveValue('1-2-3 ﾌｸｵｶﾏﾝｼﾖﾝ101');
    await expect(page.getByLabel('その他', { exact: true })).toBeChecked();
    await expect(byLabel(page, '「その他」のご利用目的')).toHaveValue('家賃の支払い');
  };
  await check();
  await page.reload();
  await expect(page).toHaveURL(bankUrl('0177', '/personal'));
  await check();
});
