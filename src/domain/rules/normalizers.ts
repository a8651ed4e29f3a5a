/**
 * What a schema can name in a field's `x-normalize`: the rewrite both sides apply to a text
 * answer (after trimming its ends, before the schema sees it), so the page shows, the server
 * checks and the bank receives what the applicant meant. An answer a normaliser leaves empty
 * counts as not given. Adding one is adding an entry here (the flow lint lists these names).
 */
import { normalizeKanaAddress, normalizeKanaName } from './kana.js';
import { isEmptyPhone, normalizeDigits } from './phones.js';
import { ACCOUNT_NUMBER_LENGTH, BRANCH_CODE_LENGTH, normalizeWorkplaceCode, normalizeWorkplaceName } from './workplace.js';

/** 1-n digits as typed (full width too) -> zero-padded to n; anything else is left for the schema. */
function padDigits(length: number) {
  return (value: string): string => {
    const digits = normalizeDigits(value).replace(/[\s\u3000]/g, '');
    return new RegExp(`^\\d{1,${length}}$`).test(digits) ? digits.padStart(length, '0') : digits;
  };
}

export const normalizers = {
  /** Full-width or hiragana furigana -> half-width katakana, small kana made large. */
  kanaName: normalizeKanaName,
  /** As kanaName, keeping the digits and signs an address has. */
  kanaAddress: normalizeKanaAddress,
  /** "123-4567" or full-width digits -> "1234567". */
  postalCode: (value: string) => normalizeDigits(value).replace(/^(\d{3})-(\d{4})$/, '$1$2'),
  /** A phone of hyphens only (three empty parts) is no number. */
  phone: (value: string) => (isEmptyPhone(value) ? '' : value),
  /** Half-width kana and letters widened, as the bank's records hold workplace names. */
  workplaceName: normalizeWorkplaceName,
  /** Half-width upper case. */
  workplaceCode: normalizeWorkplaceCode,
  /** A bank branch code: 3 digits. */
  branchCode: padDigits(BRANCH_CODE_LENGTH),
  /** An account number: 7 digits. */
  accountNumber: padDigits(ACCOUNT_NUMBER_LENGTH),
} satisfies Record<string, (value: string) => string>;

export type NormalizerName = keyof typeof normalizers;
export const normalizerNames = Object.keys(normalizers) as NormalizerName[];

export function isNormalizerName(name: unknown): name is NormalizerName {
  return typeof name === 'string' && Object.hasOwn(normalizers, name);
}
