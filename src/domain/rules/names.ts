/**
 * Name rules a schema cannot say (spec section 5, "Names" and "Kana names"): the combined
 * length of last and first name, and the characters the bank's core system cannot store.
 * Lengths count code points ([...s].length), like ajv's maxLength, so a surrogate pair is
 * one character (it is refused as unusable anyway).
 */
import { messages } from '../messages.js';

/** Combined name limit, counting the full-width space the core system puts between them. */
export const NAME_MAX_LENGTH = 24;
/** Combined kana name limit, counting the one half-width space between them. */
export const KANA_NAME_MAX_LENGTH = 48;

function codePoints(text: string | null | undefined): number {
  return text ? [...text].length : 0;
}

/**
 * Last + '　' + first at most 24 characters → messages.nameTooLong.
 * Runs only when both parts are filled: an empty part is the schema's 'required' error,
 * and '24文字以内' under a name the applicant has not finished typing would mislead.
 */
export function checkNameLength(last: string | null | undefined, first: string | null | undefined): string | null {
  if (!last || !first) return null;
  return codePoints(last) + 1 + codePoints(first) > NAME_MAX_LENGTH ? messages.nameTooLong : null;
}

/** Kana last + ' ' + kana first at most 48 characters → messages.kanaNameTooLong (both filled). */
export function checkKanaNameLength(
  kanaLast: string | null | undefined,
  kanaFirst: string | null | undefined,
): string | null {
  if (!kanaLast || !kanaFirst) return null;
  return codePoints(kanaLast) + 1 + codePoints(kanaFirst) > KANA_NAME_MAX_LENGTH ? messages.kanaNameTooLong : null;
}

/**
 * What a name may contain. The core system stores JIS X 0208 (level 1/2 kanji, kana,
 * full-width alphanumerics, a few symbols). Checking level 1/2 membership exactly needs a
 * 6,000-entry table, so this is the practical approximation the bank accepted:
 * - hiragana ぁ-ん (U+3041-U+3093) and katakana ァ-ヶ (U+30A1-U+30F6), i.e. exactly the
 *   JIS X 0208 kana (ゔ, ゕ, ヷ-ヺ are not in it), plus the iteration marks ゝゞヽヾ;
 * - half-width katakana ｦ-ﾟ (U+FF66-U+FF9F), which the core converts to full width;
 * - CJK unified ideographs of the BMP (U+4E00-U+9FFF); extension B and beyond (𠮷) are
 *   surrogate pairs and refused;
 * - 々 〆 〇 ・ ー ＝ and the full-width space (a middle name, e.g. 'ジョン　ポール');
 * - latin letters and digits, half and full width.
 * Everything else is refused: emoji, ①㈱♡☆, half-width symbols and the half-width space.
 */
const USABLE_NAME_CHARACTER =
  /^[\u3041-\u3093\u309d\u309e\u30a1-\u30f6\u30fd\u30fe\uff66-\uff9f\u4e00-\u9fff々〆〇・ー＝\u3000A-Za-z0-9Ａ-Ｚａ-ｚ０-９]$/u;

/** The distinct characters of `text` a name may not contain, in order of appearance. */
export function findUnusableNameCharacters(text: string | null | undefined): string[] {
  const found: string[] = [];
  // Iterating the string yields code points, so 𠮷 is one entry, not two halves.
  for (const character of text ?? '') {
    if (!USABLE_NAME_CHARACTER.test(character) && !found.includes(character)) found.push(character);
  }
  return found;
}

/** messages.unusableCharacters('𠮷①') for a name containing them, else null. */
export function checkUnusableNameCharacters(text: string | null | undefined): string | null {
  const found = findUnusableNameCharacters(text);
  return found.length > 0 ? messages.unusableCharacters(found.join('')) : null;
}

/** The longest name GET /api/furigana reads; the page asks for no longer one. */
export const FURIGANA_MAX_LENGTH = 20;
