/**
 * Kana normalisation (spec section 5, "Kana names ... Input is normalised: spaces removed,
 * uppercase, small kana converted to large"). The bank's core system stores kana as
 * half-width katakana, so every function here ends in half-width (the schemas' pattern is
 * ^[\uff66-\uff9f]+$ for names and ^[\uff66-\uff9fA-Z0-9().\- ]*$ for address kana).
 *
 * Width conversion is jaconv's; only the small-to-large table is ours, because jaconv has
 * no notion of it. Pure string functions: they run in the browser on blur and on the server.
 */
import jaconv from 'jaconv';

/**
 * Small full-width katakana to their large forms. Applied after hiragana has become
 * katakana and half-width katakana has become full-width, so this one table covers
 * ぁ/ァ/ｧ alike. ヵ/ヶ are included for completeness (jaconv's toHanKana would turn them
 * into ｶ/ｹ anyway).
 */
const SMALL_TO_LARGE: Readonly<Record<string, string>> = {
  ァ: 'ア',
  ィ: 'イ',
  ゥ: 'ウ',
  ェ: 'エ',
  ォ: 'オ',
  ッ: 'ツ',
  ャ: 'ヤ',
  ュ: 'ユ',
  ョ: 'ヨ',
  ヮ: 'ワ',
  ヵ: 'カ',
  ヶ: 'ケ',
};
const SMALL_KANA = /[ァィゥェォッャュョヮヵヶ]/g;

/** Half-width and full-width spaces (and tabs/newlines a paste may bring). */
const SPACES = /[\s\u3000]+/g;

/**
 * Dash-like characters a Japanese IME or a paste produces where an address means '-'.
 * The long vowel mark ー is NOT among them: it is a legitimate kana (→ ｰ).
 * U+2010..U+2015 hyphens and dashes, U+2212 minus, U+FE63 small hyphen-minus, U+FF0D
 * full-width hyphen-minus.
 */
const DASHES = /[\u2010-\u2015\u2212\ufe63\uff0d]/g;

/**
 * Shared core: NFC (so a combining dakuten U+3099 from a paste or macOS joins its base
 * first), half-width kana → full-width (ｶﾞ → ガ, so the small table sees one shape),
 * hiragana → katakana, small → large, then everything back to half width (ガ → ｶﾞ,
 * full-width ASCII → ASCII) and latin upper case.
 */
function toLargeHalfWidth(input: string): string {
  const fullWidthKatakana = jaconv.toKatakana(jaconv.toZenKana(input.normalize('NFC')));
  const large = fullWidthKatakana.replace(SMALL_KANA, (small) => SMALL_TO_LARGE[small] ?? small);
  return upperLatin(jaconv.toHan(large));
}

/** Upper-cases a-z only: toUpperCase() on arbitrary text can change length (ß → SS). */
function upperLatin(text: string): string {
  return text.replace(/[a-z]+/g, (latin) => latin.toUpperCase());
}

/**
 * Normalises a kana name field (フリガナ セイ / メイ): spaces removed, hiragana and
 * full-width katakana to half-width katakana (voiced sounds as two characters, ｶﾞ),
 * small kana to large (ｷｬｯﾄ → ｷﾔﾂﾄ), latin upper case. Anything else is left as is for
 * the schema pattern to refuse with messages.katakana.
 */
export function normalizeKanaName(input: string): string {
  return toLargeHalfWidth(input.replace(SPACES, ''));
}

/**
 * Normalises a kana address field (kanaSubAddress, kanaTempAddress): the same kana
 * conversions as names, but runs of spaces are kept as one half-width space (trimmed at
 * both ends), dash-like characters become '-', and full-width digits, latin letters,
 * parentheses and periods become half-width (latin upper case). The long vowel mark ー
 * becomes ｰ, except between two digits, where it can only be a house-number hyphen typed
 * with the IME ('１ー２' → '1-2').
 */
export function normalizeKanaAddress(input: string): string {
  const spaced = input.replace(SPACES, ' ').trim();
  // No lookbehind: older iOS Safari (before 16.4) cannot parse it.
  return toLargeHalfWidth(spaced.replace(DASHES, '-')).replace(/(\d)ｰ(?=\d)/g, '$1-');
}

/**
 * Width conversion only, for kana that comes from the postal-code data or the furigana
 * lookup: hiragana and full-width katakana to half-width katakana, full-width ASCII to
 * ASCII. Small kana and spaces are kept (the source is authoritative; the field's own
 * normaliser runs when the applicant edits it).
 */
export function toHalfWidthKatakana(input: string): string {
  return jaconv.toHan(jaconv.toKatakana(input.normalize('NFC')));
}
