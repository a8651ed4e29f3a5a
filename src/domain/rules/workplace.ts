/**
 * Occupation and workplace rules (spec section 5, "Occupation", "Workplace code",
 * "Invitation code", "Workplace name", "Existing account").
 */
import jaconv from 'jaconv';
import { messages } from '../messages.js';
import { containsRomanNumerals } from './address.js';
import { normalizeDigits } from './phones.js';
import { SPACES_AT_ENDS } from './spaces.js';

/** The occupation whose free text is required (spec section 3: named 'その他', sorted last). */
export const OTHER_OCCUPATION_NAME = 'その他';
export const OCCUPATION_OTHER_MAX_LENGTH = 25;
export const WORKPLACE_NAME_MAX_LENGTH = 25;
export const BRANCH_CODE_LENGTH = 3;
export const ACCOUNT_NUMBER_LENGTH = 7;


/** Workplace or invitation code as typed → half-width, trimmed, upper case ('ａｂ１２３４' → 'AB1234'). */
export function normalizeWorkplaceCode(input: string): string {
  return jaconv.toHanAscii(input).replace(SPACES_AT_ENDS, '').replace(/[a-z]+/g, (latin) => latin.toUpperCase());
}

/** A workplace code has exactly 6 or 8 characters; any other length is "not found" without asking the server. */
export function isWorkplaceCodeShape(code: string): boolean {
  const length = [...code].length;
  return length === 6 || length === 8;
}

/**
 * An invitation code has exactly 6 characters. Letters and digits only, like the
 * workplace schema's pattern ^[0-9A-Za-z]{6}$, so the client never sends what the
 * server refuses.
 */
export function isInvitationCodeShape(code: string): boolean {
  return /^[0-9A-Za-z]{6}$/.test(code);
}

/**
 * Enclosed company-type symbols and the words they stand for. The spec says they are
 * "expanded to company words"; we write the full legal form (㈱ → 株式会社, not （株）),
 * which is how the company's name reads and what a bank's core record expects. ㍿ is
 * the square form of 株式会社.
 */
const COMPANY_SYMBOLS: Readonly<Record<string, string>> = {
  '㈱': '株式会社',
  '㍿': '株式会社',
  '㈲': '有限会社',
  '㈾': '合資会社',
  '㈴': '合名会社',
  '㈳': '社団法人',
  '㈶': '財団法人',
};
const COMPANY_SYMBOL = /[㈱㍿㈲㈾㈴㈳㈶]/g;

/**
 * Workplace name on blur: company symbols expanded, half-width ASCII and katakana to full
 * width (jaconv toZen: 'ABC ｶﾞｽ' → 'ＡＢＣ　ガス'), half/full spaces trimmed at both ends.
 * Idempotent, so the server may apply it again before checking and storing.
 */
export function normalizeWorkplaceName(input: string): string {
  const expanded = input.normalize('NFC').replace(COMPANY_SYMBOL, (symbol) => COMPANY_SYMBOLS[symbol] ?? symbol);
  return jaconv.toZen(expanded).replace(SPACES_AT_ENDS, '');
}

/**
 * Symbols the core system refuses in a workplace name. The spec gives "full-width
 * ＜＋｜！￥＊；％ and ※〒" as examples; the bank's list is the full-width ASCII symbols
 * below plus ※〒 (＆ included, as the bank listed it). Also refused: the wave dash 〜 (the IME's form of ～), ＼, and the curly quotes
 * ”“’‘, because jaconv widens ASCII " and ' into them; and the half-width forms, because
 * the server may be handed a name that was not normalised. Parentheses, hyphen, period,
 * comma, slash and ・ stay allowed: '（株）' and 'Ａ．Ｂ．Ｃ' are ordinary names.
 */
const FORBIDDEN_FULL_WIDTH = '＜＞＋｜！￥＊；％＂＃＄＆＇＾｀｛｝～〜＼※〒”“’‘';
const FORBIDDEN_HALF_WIDTH = '<>+|!¥\\*;%"#$&\'^`{}~';
export const FORBIDDEN_WORKPLACE_CHARACTERS: ReadonlySet<string> = new Set([
  ...FORBIDDEN_FULL_WIDTH,
  ...FORBIDDEN_HALF_WIDTH,
]);

/** The distinct forbidden symbols of a workplace name, in order of appearance. */
export function findForbiddenWorkplaceCharacters(name: string | null | undefined): string[] {
  const found: string[] = [];
  for (const character of name ?? '') {
    if (FORBIDDEN_WORKPLACE_CHARACTERS.has(character) && !found.includes(character)) found.push(character);
  }
  return found;
}

/**
 * The workplace name rules, on the normalised name (what the field shows after blur and
 * what is stored): required when the occupation requires a workplace; no roman numerals;
 * no forbidden symbols ('＜は使用できません。'); at most 25 code points (𠮷 counts 1).
 */
export function checkWorkplaceName(name: string | null | undefined, required: boolean): string | null {
  const normalised = normalizeWorkplaceName(name ?? '');
  if (normalised === '') return required ? messages.required : null;
  if (containsRomanNumerals(normalised)) return messages.convertNumerals;
  const forbidden = findForbiddenWorkplaceCharacters(normalised);
  if (forbidden.length > 0) return messages.workplaceForbiddenCharacters(forbidden.join(''));
  return [...normalised].length > WORKPLACE_NAME_MAX_LENGTH ? messages.workplaceNameTooLong : null;
}

export interface OccupationLike {
  name: string;
}

/** For the 'その他' occupation: text required (messages.required), 1-25 characters. */
export function checkOccupationOther(
  occupation: OccupationLike | null | undefined,
  text: string | null | undefined,
): string | null {
  if (occupation?.name !== OTHER_OCCUPATION_NAME) return null;
  if (!text || text.trim() === '') return messages.required;
  return [...text].length > OCCUPATION_OTHER_MAX_LENGTH ? messages.occupationOtherTooLong : null;
}

export interface ExistingAccount {
  branchCode: string;
  accountNumber: string;
}

function cleanNumber(input: string | null | undefined): string {
  return normalizeDigits(input ?? '').replace(/[\s\u3000]/g, '');
}

/** As sent: digits half-width, branch zero-padded to 3 and account to 7 ('12', '3456' → '012', '0003456'). */
export function padExistingAccount(branch: string, account: string): ExistingAccount {
  return {
    branchCode: cleanNumber(branch).padStart(BRANCH_CODE_LENGTH, '0'),
    accountNumber: cleanNumber(account).padStart(ACCOUNT_NUMBER_LENGTH, '0'),
  };
}

/** A branch code as typed: 1-3 digits (half or full width), zero-padded on send. */
export function isBranchCodeInput(branch: string | null | undefined): boolean {
  return /^\d{1,3}$/.test(cleanNumber(branch));
}

/** An account number as typed: 1-7 digits (half or full width), zero-padded on send. */
export function isAccountNumberInput(account: string | null | undefined): boolean {
  return /^\d{1,7}$/.test(cleanNumber(account));
}

/**
 * Both given, digits only, at most 3 and 7 digits (shorter ones are zero-padded on send)
 * → else messages.existingAccount. Call it when the applicant says they hold an account.
 */
export function checkExistingAccount(branch: string | null | undefined, account: string | null | undefined): string | null {
  return isBranchCodeInput(branch) && isAccountNumberInput(account) ? null : messages.existingAccount;
}
