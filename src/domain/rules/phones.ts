/**
 * Phone numbers (spec section 5, "Mobile phone", "Home phone", "Workplace phone"). The
 * form has three inputs per number; the API carries one hyphenated string. Check
 * functions look at the string as sent (the client builds it with joinPhone, which
 * converts full-width digits), so what is checked is what is stored.
 */
import { messages } from '../messages.js';

export type PhoneParts = [string, string, string];

const MOBILE_PHONE = /^0[5789]0-\d{4}-\d{4}$/;
/** Leading 0, 1-4 digits, 1-4 digits, 4 digits; 12 or 13 characters with the hyphens. */
const FIXED_PHONE = /^0\d{1,4}-\d{1,4}-\d{4}$/;
const FIXED_PHONE_MIN_LENGTH = 12;
const FIXED_PHONE_MAX_LENGTH = 13;

/** Full-width digits (typed with the IME on) to ASCII digits; nothing else changes. */
export function normalizeDigits(input: string): string {
  return input.replace(/[０-９]/g, (digit) => String.fromCharCode(digit.charCodeAt(0) - 0xfee0));
}

/**
 * The three inputs as one value: parts trimmed and digits made half-width, joined with
 * hyphens; null when all three are empty (the spec's "two hyphens only" means no number).
 */
export function joinPhone(parts: readonly [string, string, string]): string | null {
  const cleaned = parts.map((part) => normalizeDigits(part).replace(/[\s\u3000]/g, ''));
  return cleaned.every((part) => part === '') ? null : cleaned.join('-');
}

/**
 * A stored value back into the three inputs. null/'' (no number) gives three empty parts;
 * a value that does not split into exactly three parts gives null, which the caller
 * treats as a system error (spec section 8: the workplace phone then goes to /error).
 */
export function splitPhone(value: string | null | undefined): PhoneParts | null {
  if (value === null || value === undefined || value === '') return ['', '', ''];
  const parts = value.split('-');
  return parts.length === 3 ? [parts[0] ?? '', parts[1] ?? '', parts[2] ?? ''] : null;
}

/** No number: null, '', or the two hyphens of three empty inputs. */
export function isEmptyPhone(value: string | null | undefined): boolean {
  return value === null || value === undefined || value.replace(/[-\s\u3000]/g, '') === '';
}

function isFixedPhone(value: string): boolean {
  return value.length >= FIXED_PHONE_MIN_LENGTH && value.length <= FIXED_PHONE_MAX_LENGTH && FIXED_PHONE.test(value);
}

/** Required; 0[5789]0-xxxx-xxxx → messages.mobilePhone. */
export function checkMobilePhone(value: string | null | undefined): string | null {
  return value && MOBILE_PHONE.test(value) ? null : messages.mobilePhone;
}

/** Optional; if given, 12-13 characters 0x-x-xxxx → messages.homePhone. */
export function checkHomePhone(value: string | null | undefined): string | null {
  if (isEmptyPhone(value)) return null;
  return isFixedPhone(value ?? '') ? null : messages.homePhone;
}

/**
 * Required (messages.required) when the occupation requires a workplace; if given (even
 * partly), 12-13 characters 0x-x-xxxx → messages.workplacePhone.
 */
export function checkWorkplacePhone(value: string | null | undefined, required: boolean): string | null {
  if (isEmptyPhone(value)) return required ? messages.required : null;
  return isFixedPhone(value ?? '') ? null : messages.workplacePhone;
}
