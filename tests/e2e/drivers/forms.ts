import { expect, type Page } from '@playwright/test';
import { byLabel, chooseBirthday, groupOf, typePhone } from '../support';
import type { ChildEntry, ParentEntry, PersonalEntry, WorkplaceEntry } from './applicants';
import type { OwnVariant } from './own-variants';

/**
 * Filling the forms as an applicant does, without pressing the button: the drivers press it,
 * and tests that look at a form's messages fill it with these and then change one field.
 * Each works on an empty form and on one shown again with what was entered before.
 */

/** A name, then on to the next field: the server's furigana suggestion must be the expected kana. */
async function nameWithFurigana(page: Page, name: string, nameLabel: string, kana: string, kanaLabel: string, next: string) {
  await byLabel(page, nameLabel).fill(name);
  await byLabel(page, next).focus();
  await expect(byLabel(page, kanaLabel)).toHaveValue(kana);
}

/**
 * /personal and /child/personal: names (checking the suggested furigana), birthday, gender,
 * mobile phone, the postal code search and its candidate (or, in a variant, 「該当する住所がない」
 * and the address typed), the rest of the address, purposes (and その他's text), and the
 * distance reason when one is given (the bank asks it).
 */
export async function fillPersonal(page: Page, entry: PersonalEntry, variant: OwnVariant = {}, distanceReason?: string): Promise<void> {
  await nameWithFurigana(page, entry.lastName, 'お名前（姓）', entry.kanaLastName, 'フリガナ（セイ）', 'お名前（名）');
  await nameWithFurigana(page, entry.firstName, 'お名前（名）', entry.kanaFirstName, 'フリガナ（メイ）', 'フリガナ（セイ）');
  await chooseBirthday(page, entry.birthday);
  await page.getByText(entry.gender, { exact: true }).click();
  await typePhone(page, '携帯電話番号', entry.mobile);
  if (variant.temporaryAddress) await typeTemporaryAddress(page, variant.temporaryAddress);
  else await searchAddress(page, entry);
  for (const purpose of entry.purposes) await page.getByLabel(purpose, { exact: true }).check();
  if (variant.otherPurpose !== undefined) {
    await page.getByLabel('その他', { exact: true }).check();
    await byLabel(page, '「その他」のご利用目的').fill(variant.otherPurpose);
  }
  if (distanceReason !== undefined) await byLabel(page, '遠隔地でのお取引の理由').fill(distanceReason);
}

/** The postal code search, its candidate, and the rest of the address. */
async function searchAddress(page: Page, entry: PersonalEntry): Promise<void> {
  await byLabel(page, '郵便番号').fill(entry.postalNumber);
  const search = page.getByRole('button', { name: '住所を検索' });
  await search.click();
  // The button is disabled while searching: once enabled again, the candidates are this search's.
  await expect(search).toBeEnabled();
  const candidates = page.getByRole('group', { name: '住所の候補' });
  await expect(candidates.getByText(entry.address, { exact: true })).toBeVisible();
  if ((await candidates.getByRole('radio').count()) > 1) await candidates.getByLabel(entry.address, { exact: true }).check();
  await expect(page.locator('output')).toHaveText(entry.address);
  await byLabel(page, '番地・建物名・部屋番号').fill(entry.subAddress);
  await byLabel(page, '番地・建物名・部屋番号（フリガナ）').fill(entry.kanaSubAddress);
}

/** 「該当する住所がない」, then the address typed from its prefecture. */
async function typeTemporaryAddress(page: Page, address: NonNullable<OwnVariant['temporaryAddress']>): Promise<void> {
  await page.getByLabel('該当する住所がない').check();
  await byLabel(page, '都道府県').selectOption(address.prefecture);
  await byLabel(page, '住所（市区町村以降）').fill(address.address);
  await byLabel(page, '住所（フリガナ）').fill(address.kana);
}

/** /child/personal: the child's data, then the child's occupation (chosen last: the birthday decides the list). */
export async function fillChildPersonal(page: Page, child: ChildEntry, variant: OwnVariant = {}, distanceReason?: string): Promise<void> {
  await fillPersonal(page, child, variant, distanceReason);
  await fillOccupation(page, variant.occupation?.name ?? child.occupation, undefined, variant.occupation?.other);
}

/** The occupation select (and その他's text) and, for an occupation that needs one, the workplace typed by hand. */
export async function fillOccupation(page: Page, occupation: string, workplace: WorkplaceEntry | undefined, other?: string): Promise<void> {
  await byLabel(page, 'ご職業').selectOption({ label: occupation });
  if (other !== undefined) await byLabel(page, 'ご職業（その他）').fill(other);
  if (workplace) {
    await byLabel(page, 'お勤め先名').fill(workplace.name);
    await typePhone(page, 'お勤め先電話番号', workplace.phone);
  }
}

/**
 * A name, then its kana as given (which may differ from the suggestion, to test a rule): the
 * suggestion for the name is awaited first, so that it never lands while the kana is typed.
 */
async function nameThenKana(page: Page, name: string, nameLabel: string, kana: string, kanaLabel: string, next: string) {
  await byLabel(page, nameLabel).fill(name);
  await byLabel(page, next).focus();
  await expect(byLabel(page, kanaLabel)).not.toHaveValue('');
  await byLabel(page, kanaLabel).fill(kana);
}

/** /child/parent: the parent's data and occupation (the variant's instead, with no workplace, if it has one). */
export async function fillParent(page: Page, parent: ParentEntry, variant: OwnVariant = {}): Promise<void> {
  await nameThenKana(page, parent.lastName, 'お名前（姓）', parent.kanaLastName, 'フリガナ（セイ）', 'お名前（名）');
  await nameThenKana(page, parent.firstName, 'お名前（名）', parent.kanaFirstName, 'フリガナ（メイ）', 'フリガナ（セイ）');
  await chooseBirthday(page, parent.birthday);
  await groupOf(page, '続柄').getByText(parent.relationship, { exact: true }).click();
  await typePhone(page, '携帯電話番号', parent.mobile);
  if (variant.occupation) await fillOccupation(page, variant.occupation.name, undefined, variant.occupation.other);
  else await fillOccupation(page, parent.occupation, parent.workplace);
}
