/**
 * The cash-card PIN rules (spec section 5, "PIN"), run by the /pin page before it encrypts
 * the PIN and again by the server after it decrypted it (POST /api/pin).
 *
 * Order of the checks, and so of the one message returned:
 *   1. four half-width digits                        messages.pinFormat
 *   2. both entries equal                            messages.pinMismatch
 *   3. not four identical digits (0000 … 9999)       messages.pinForbidden
 *   4. not a part of the birthday (see birthdayPinForms)  messages.pinBirthday
 *   5. not the last 4 digits of the mobile, home or workplace phone   messages.pinPhone
 *      (4 and 5: the parent's too in the child flow, see below)
 *   6. not the first or last 4 digits of the address, kana address or temporary address
 *      (see addressPinForms)                         messages.pinAddress
 * The spec lists the mismatch first; the format comes first here because for an entry that
 * is not four digits at all ('12', '１２３４') the format message is the one that helps, and
 * whether two malformed entries match says nothing. Sequences such as 1234 are not refused:
 * the spec names four identical digits only, and its message list has no other case.
 *
 * The context is built by pinContextOf from the application as stored and, in the child flow,
 * its parent (GET /api/applications' `application` and `applicationParent` on the page, the
 * same rows on the server): missing or null fields simply add no forbidden value.
 *
 * Child flow: the card is the child's, but the parent chooses the PIN and keeps the card for a
 * young child, and the parent's birthday and phone numbers are as well known to others as the
 * child's (on the same family documents, in the same address book). So the birthday and phone
 * rules cover both; the address is the household's, entered once for the child.
 */
import { messages } from '../messages.js';
import type { FieldError } from './field-error.js';
import { parseIsoDate, toJapaneseEra } from './dates.js';
import { normalizeDigits } from './phones.js';

export const PIN_LENGTH = 4;

/** What a person gives that others know: a PIN must not be built from it. */
export interface PinPerson {
  /** YYYY-MM-DD. */
  birthday?: string | null;
  mobilePhoneNumber?: string | null;
  phoneNumber?: string | null;
  workplacePhoneNumber?: string | null;
}

export interface PinContext extends PinPerson {
  /** Child flow: the parent applying as proxy (their birthday and phones are refused too). */
  parent?: PinPerson | null;
  /** The registered address (prefecture to chome, from the postal data). */
  address?: string | null;
  subAddress?: string | null;
  kanaAddress?: string | null;
  kanaSubAddress?: string | null;
  tempAddress?: string | null;
  kanaTempAddress?: string | null;
}

/** The fields of the application the rules read (a stored row or GET /api/applications' `application`). */
export type PinApplicationFields = Omit<PinContext, 'parent'>;

/**
 * The one context builder of the page and the server: the application's own fields and, for a
 * child application (a parent saved with it), the parent's birthday and phones. Extra fields
 * of the records passed are left out.
 */
export function pinContextOf(application: PinApplicationFields | null | undefined, parent: PinPerson | null | undefined): PinContext {
  const app = application ?? {};
  const person = (from: PinPerson): PinPerson => ({
    birthday: from.birthday ?? null,
    mobilePhoneNumber: from.mobilePhoneNumber ?? null,
    phoneNumber: from.phoneNumber ?? null,
    workplacePhoneNumber: from.workplacePhoneNumber ?? null,
  });
  return {
    ...person(app),
    address: app.address ?? null,
    subAddress: app.subAddress ?? null,
    kanaAddress: app.kanaAddress ?? null,
    kanaSubAddress: app.kanaSubAddress ?? null,
    tempAddress: app.tempAddress ?? null,
    kanaTempAddress: app.kanaTempAddress ?? null,
    parent: parent ? person(parent) : null,
  };
}

/** The people whose birthday and phones the PIN must avoid: the applicant, and the parent in the child flow. */
function peopleOf(context: PinContext): PinPerson[] {
  return context.parent ? [context, context.parent] : [context];
}

const FOUR_HALF_WIDTH_DIGITS = /^[0-9]{4}$/;

const two = (value: number) => String(value % 100).padStart(2, '0');

/**
 * The four-digit forms of a birthday a PIN must not be, for 1990-05-01 (平成2年):
 *   YYYY 1990 · MMDD 0501 · DDMM 0105 · YYMM 9005 · MMYY 0590 · YYDD 9001 · DDYY 0190 ·
 *   EEMM 0205 · MMEE 0502 · EEDD 0201 · DDEE 0102
 * where YY is the last two digits of the year and EE the two-digit year of the Japanese era
 * (元年 = 01), as bank forms write birthdays in both calendars. Every pair of two-digit
 * parts in both orders, plus the full year: someone guessing a PIN from an ID card tries
 * exactly these. Empty for a missing or unreal date.
 */
export function birthdayPinForms(birthday: string | null | undefined): string[] {
  const date = parseIsoDate(birthday);
  if (!date || !birthday) return [];
  const yyyy = String(date.year).padStart(4, '0');
  const yy = two(date.year);
  const mm = two(date.month);
  const dd = two(date.day);
  const ee = two(toJapaneseEra(birthday).year);
  const forms = [yyyy, mm + dd, dd + mm, yy + mm, mm + yy, yy + dd, dd + yy, ee + mm, mm + ee, ee + dd, dd + ee];
  return [...new Set(forms)];
}

/** The digits of a text, full-width ones made half-width; everything else dropped. */
export function digitsOf(text: string | null | undefined): string {
  return normalizeDigits(text ?? '').replace(/[^0-9]/g, '');
}

/** Last 4 digits of each phone number given (mobile, home, workplace; the parent's too in the child flow). */
export function phonePinForms(context: PinContext): string[] {
  const forms = peopleOf(context)
    .flatMap((person) => [person.mobilePhoneNumber, person.phoneNumber, person.workplacePhoneNumber])
    .map(digitsOf)
    .filter((digits) => digits.length >= PIN_LENGTH)
    .map((digits) => digits.slice(-PIN_LENGTH));
  return [...new Set(forms)];
}

/**
 * First and last 4 digits of the address texts: the registered address with its remainder
 * (番地, building, room), the remainder alone (the house number is what others know), their
 * kana versions, and the temporary address and its kana. Digits are taken from the text as
 * written (１丁目２番３号 → 123); a text with fewer than 4 digits adds nothing.
 */
export function addressPinForms(context: PinContext): string[] {
  const texts = [
    `${context.address ?? ''}${context.subAddress ?? ''}`,
    context.subAddress,
    `${context.kanaAddress ?? ''}${context.kanaSubAddress ?? ''}`,
    context.kanaSubAddress,
    context.tempAddress,
    context.kanaTempAddress,
  ];
  const forms: string[] = [];
  for (const text of texts) {
    const digits = digitsOf(text);
    if (digits.length < PIN_LENGTH) continue;
    forms.push(digits.slice(0, PIN_LENGTH), digits.slice(-PIN_LENGTH));
  }
  return [...new Set(forms)];
}

/** The first rule the PIN breaks (order in the file comment), or null when it may be set. */
export function firstPinError(pin: string, confirmation: string, context: PinContext): string | null {
  if (!FOUR_HALF_WIDTH_DIGITS.test(pin)) return messages.pinFormat;
  if (pin !== confirmation) return messages.pinMismatch;
  if (/^(\d)\1{3}$/.test(pin)) return messages.pinForbidden;
  if (peopleOf(context).some((person) => birthdayPinForms(person.birthday).includes(pin))) return messages.pinBirthday;
  if (phonePinForms(context).includes(pin)) return messages.pinPhone;
  if (addressPinForms(context).includes(pin)) return messages.pinAddress;
  return null;
}

/**
 * As firstPinError, addressed to the form field that shows it: the mismatch to
 * `pinConfirmation`, every other rule to `pin`. At most one error.
 */
export function pinRuleErrors(pin: string, confirmation: string, context: PinContext): FieldError[] {
  const message = firstPinError(pin, confirmation, context);
  if (message === null) return [];
  return [{ field: message === messages.pinMismatch ? 'pinConfirmation' : 'pin', message }];
}
