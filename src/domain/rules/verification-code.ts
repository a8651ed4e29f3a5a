/**
 * What the applicant typed, as the server checks it (spec section 5): half- and full-width
 * spaces removed, and full-width digits (０-９, typed with a Japanese IME on) turned into
 * half-width ones, so that '１２３ ４５６' is the code 123456.
 */
export function normalizeVerificationCode(input: string): string {
  return input
    .replace(/[\s\u3000]/g, '')
    .replace(/[０-９]/g, (digit) => String.fromCharCode(digit.charCodeAt(0) - 0xfee0));
}
