import { EKYC_COMPARED_FIELDS, type EkycComparedField } from '../../domain/ekyc.js';

/**
 * Compares an OpenID provider's identity claims with what the person checked entered
 * (docs/adr/0035): name, date of birth and address. Gender is kept as evidence, not compared
 * (the form's choice and the register's entry need not mean the same thing).
 */

/** The standard OIDC claims the JPKI check returns (OIDC Core 5.1). */
export interface IdentityClaims {
  sub: string;
  name?: string;
  family_name?: string;
  given_name?: string;
  birthdate?: string;
  gender?: string;
  address?: { formatted?: string } | string;
  [claim: string]: unknown;
}

/** The entered items compared (src/domain/ekyc.ts): name, birthday, address. */
export type ComparedField = EkycComparedField;

/** Width, case and spaces do not matter: NFKC (full-width digits/letters, half-width kana), no spaces, no dash variants. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/\s+/gu, '')
    .replace(/[‐‑‒–—―−ｰ－]/gu, '-')
    .toLowerCase();
}

/** Hiragana -> katakana, so a kana name compares with either. */
function katakana(text: string): string {
  return text.replace(/[\u3041-\u3096]/gu, (c) => String.fromCharCode(c.charCodeAt(0) + 0x60));
}

const kanjiDigits: Record<string, number> = { 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** 一..九十九 -> a number (the 丁目 of an address). */
function kanjiNumber(text: string): number {
  const ten = text.indexOf('十');
  if (ten < 0) return kanjiDigits[text] ?? 0;
  const tens = ten === 0 ? 1 : (kanjiDigits[text.slice(0, ten)] ?? 0);
  return tens * 10 + (kanjiDigits[text.slice(ten + 1)] ?? 0);
}

/** An address as a comparable string: 二丁目13番1号, ２－１３－１ and 2-13-1 all become 2-13-1. */
export function normalizeAddress(text: string): string {
  return normalizeText(text)
    .replace(/([一二三四五六七八九十]+)丁目/gu, (_m, n: string) => `${kanjiNumber(n)}-`)
    .replace(/(\d+)(丁目|番地|番|の)/gu, '$1-')
    .replace(/(\d+)号/gu, '$1')
    .replace(/-+/gu, '-')
    .replace(/-$/u, '');
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function claimedName(claims: IdentityClaims): string {
  return claims.name ?? `${claims.family_name ?? ''}${claims.given_name ?? ''}`;
}

function claimedAddress(claims: IdentityClaims): string {
  return typeof claims.address === 'string' ? claims.address : (claims.address?.formatted ?? '');
}

/** The address the person entered: the searched one (or the typed one) and the rest of it. */
export function enteredAddress(entered: Record<string, unknown>): string {
  const main = text(entered.address) || `${text(entered.tempAddressPrefecture)}${text(entered.tempAddress)}`;
  return `${main}${text(entered.subAddress)}`;
}

function nameMatches(claims: IdentityClaims, entered: Record<string, unknown>): boolean {
  const claimed = katakana(normalizeText(claimedName(claims)));
  if (claimed === '') return false;
  const kanji = normalizeText(`${text(entered.lastName)}${text(entered.firstName)}`);
  const kana = katakana(normalizeText(`${text(entered.kanaLastName)}${text(entered.kanaFirstName)}`));
  return claimed === kanji || claimed === kana;
}

/**
 * What the register's address must cover beyond: the searched part (prefecture to town), or of
 * an address typed whole (no postal code matched) all before its first digit, the lot number's.
 */
function addressBase(entered: Record<string, unknown>, full: string): string {
  const searched = text(entered.address);
  if (searched !== '') return normalizeAddress(searched);
  const lot = full.search(/\d/u);
  return lot < 0 ? full.slice(0, -1) : full.slice(0, lot);
}

function addressMatches(claims: IdentityClaims, entered: Record<string, unknown>): boolean {
  const claimed = normalizeAddress(claimedAddress(claims));
  // The register's address may stop before the building the applicant added: a prefix that
  // covers at least the searched part (prefecture to town) and the lot number is a match.
  const full = normalizeAddress(enteredAddress(entered));
  return claimed.length > addressBase(entered, full).length && full.startsWith(claimed) && !/^\d/u.test(full.slice(claimed.length));
}

export const allComparedFields: readonly ComparedField[] = EKYC_COMPARED_FIELDS;

const matches: Record<ComparedField, (claims: IdentityClaims, entered: Record<string, unknown>) => boolean> = {
  name: nameMatches,
  birthday: (claims, entered) => Boolean(claims.birthdate) && claims.birthdate === text(entered.birthday),
  address: addressMatches,
};

/**
 * The fields (of `fields`: what the person entered) whose claim differs from the entry; empty:
 * the person is the one who applied.
 */
export function compareClaims(claims: IdentityClaims, entered: Record<string, unknown>, fields: readonly ComparedField[] = allComparedFields): ComparedField[] {
  return fields.filter((field) => !matches[field](claims, entered));
}
