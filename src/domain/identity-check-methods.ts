import { japanIsoDate, type Today } from './rules/dates.js';

/**
 * How a person was checked, as a verification record names it (column `method`). The codes are
 * stable: an audit reads them years later, so a code is never renamed or reused; a new way of
 * checking is a new code. The letters are those of 犯罪収益移転防止法施行規則 第6条第1項第1号
 * as they stand before 2027-04-01 (docs/adr/0034 for what changes on that date).
 */
export const VERIFICATION_METHODS = {
  /** ホ: the provider's app photographs the person's face and a photo identity document (today's provider). */
  IMAGE_SELFIE_PHOTO_ID: 'IMAGE_SELFIE_PHOTO_ID',
  /**
   * The child of a CHILD application: images of the child's individual number card and of a
   * residence certificate or maternity handbook, uploaded by the parent (POST /api/documents).
   */
  CHILD_DOCUMENT_IMAGES: 'CHILD_DOCUMENT_IMAGES',
  /** ヘ: the provider's app reads a photo identity document's IC chip and photographs the face. */
  IC_CHIP_AND_FACE: 'IC_CHIP_AND_FACE',
  /** ワ: the public personal authentication service (JPKI), e.g. the Digital Agency's app over OpenID Connect. */
  JPKI_SIGNATURE: 'JPKI_SIGNATURE',
} as const;

export type VerificationMethod = (typeof VERIFICATION_METHODS)[keyof typeof VERIFICATION_METHODS];

export const verificationMethods = Object.values(VERIFICATION_METHODS);

/**
 * When a bank offers a method (bank.json `identityCheckMethods`, ADR 0037): from and until are
 * calendar days in Japan (YYYY-MM-DD), both inclusive, either open. The switch of 2027-04-01 is
 * a date here, not a release.
 */
export interface MethodWindow {
  method: VerificationMethod;
  from?: string;
  until?: string;
}

/**
 * The methods an applicant starts at a provider (POST /api/ekyc { method }); the others are
 * steps of the flow (CHILD_DOCUMENT_IMAGES: the parent uploads the child's documents).
 */
export const providerMethods = [VERIFICATION_METHODS.IMAGE_SELFIE_PHOTO_ID, VERIFICATION_METHODS.JPKI_SIGNATURE, VERIFICATION_METHODS.IC_CHIP_AND_FACE] as const;
export type ProviderMethod = (typeof providerMethods)[number];

export function isProviderMethod(method: VerificationMethod): method is ProviderMethod {
  return (providerMethods as readonly string[]).includes(method);
}

/** Whether `window` covers `day` (YYYY-MM-DD; string order is date order in this form). */
export function windowCovers(window: MethodWindow, day: string): boolean {
  return (window.from === undefined || window.from <= day) && (window.until === undefined || day <= window.until);
}

/**
 * The methods offered on the Japan day of `today` (an instant, or a day written YYYY-MM-DD), in
 * the bank's order (its first is the one a page names first).
 */
export function methodsOfferedAt(windows: readonly MethodWindow[], today: Today): VerificationMethod[] {
  const day = japanIsoDate(today);
  const offered = windows.filter((window) => windowCovers(window, day)).map((window) => window.method);
  return [...new Set(offered)];
}
