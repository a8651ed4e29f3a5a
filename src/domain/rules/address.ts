/**
 * Address rules (spec section 5, "Postal code", "Address remainder", "Distance reason",
 * "Purposes").
 */
import { messages } from '../messages.js';
import { normalizeDigits } from './phones.js';

export const POSTAL_CODE_LENGTH = 7;
export const DISTANCE_REASON_MAX_LENGTH = 50;
export const PURPOSE_OTHER_MAX_LENGTH = 24;
/** The value of the 'その他' purpose in every bank's UTILIZATION_PURPOSE_LIST. */
export const PURPOSE_OTHER_VALUE = 'OTHER';

/** As typed → at most 7 ASCII digits: full-width digits converted, hyphens, 〒 and anything else dropped. */
export function normalizePostalCode(input: string): string {
  return normalizeDigits(input).replace(/\D/g, '').slice(0, POSTAL_CODE_LENGTH);
}

/** For display: '8600046' → '860-0046' (a partial '8600' → '860-0'). */
export function formatPostalCode(input: string): string {
  const digits = normalizePostalCode(input);
  return digits.length > 3 ? `${digits.slice(0, 3)}-${digits.slice(3)}` : digits;
}

/** The address search needs exactly 7 digits. */
export function isSearchablePostalCode(value: string): boolean {
  return /^\d{7}$/.test(value);
}

/**
 * Roman numeral characters (Ⅰ-Ⅻ, ⅰ-ⅿ, up to ↈ: U+2160-U+2188), which the core system
 * cannot store: the applicant is asked to write 1 2 3 instead.
 */
export function containsRomanNumerals(text: string | null | undefined): boolean {
  return /[\u2160-\u2188]/.test(text ?? '');
}

/** messages.convertNumerals when the text contains roman numeral characters. */
export function checkRomanNumerals(text: string | null | undefined): string | null {
  return containsRomanNumerals(text) ? messages.convertNumerals : null;
}

export interface DistanceReasonBank {
  distanceTransactionReasonRequired: boolean;
  homePrefecture: string;
}

/**
 * A distance-transaction reason is needed when the bank asks for one (0177) and the
 * applicant lives in another prefecture. No prefecture yet (address not searched) → not
 * needed yet; the address itself is required elsewhere.
 */
export function needsDistanceReason(bank: DistanceReasonBank, prefecture: string | null | undefined): boolean {
  const chosen = (prefecture ?? '').trim();
  return bank.distanceTransactionReasonRequired && chosen !== '' && chosen !== bank.homePrefecture.trim();
}

/** When needed: required (messages.required), 1-50 characters (messages.distanceReasonTooLong). */
export function checkDistanceReason(
  bank: DistanceReasonBank,
  prefecture: string | null | undefined,
  reason: string | null | undefined,
): string | null {
  if (!needsDistanceReason(bank, prefecture)) return null;
  if (!reason || reason.trim() === '') return messages.required;
  return [...reason].length > DISTANCE_REASON_MAX_LENGTH ? messages.distanceReasonTooLong : null;
}

/**
 * The purpose selection: at least one (messages.selectRequired); every value one of the
 * bank's list, else the body was not made by our form (messages.badRequest).
 */
export function checkPurposeSelection(
  selected: readonly string[] | null | undefined,
  allowed: readonly string[],
): string | null {
  if (!selected || selected.length === 0) return messages.selectRequired;
  return selected.every((value) => allowed.includes(value)) ? null : messages.badRequest;
}

/** The 'その他' text: required when OTHER is selected, at most 24 characters. */
export function checkPurposeOther(
  selected: readonly string[] | null | undefined,
  other: string | null | undefined,
): string | null {
  if (!selected?.includes(PURPOSE_OTHER_VALUE)) return null;
  if (!other || other.trim() === '') return messages.purposeOtherRequired;
  return [...other].length > PURPOSE_OTHER_MAX_LENGTH ? messages.purposeOtherTooLong : null;
}

/** Both purpose rules, selection first. forms.ts calls the two halves to address the right field. */
export function checkPurposes(
  selected: readonly string[] | null | undefined,
  allowed: readonly string[],
  other: string | null | undefined,
): string | null {
  return checkPurposeSelection(selected, allowed) ?? checkPurposeOther(selected, other);
}
