import jaconv from 'jaconv';

/**
 * Names and addresses as the bank's core system takes them: the Zengin character set of
 * account names (全銀協 standard protocol): upper-case half-width katakana without small kana,
 * voiced marks as their own characters (ｶﾞ), digits, upper-case Latin letters, space and the
 * symbols ( ) - . / only. What an applicant types is brought into that set the way banks do:
 * hiragana and full-width katakana become half-width katakana, small kana large (ｼｮｳ → ｼﾖｳ),
 * ヲ ヰ ヱ their sounds ｵ ｲ ｴ, the long vowel mark and dashes a hyphen-minus, the middle dot a
 * full stop, full-width letters and digits half-width and upper-case, runs of spaces one.
 */

const SMALL_TO_LARGE: Record<string, string> = {
  ァ: 'ア', ィ: 'イ', ゥ: 'ウ', ェ: 'エ', ォ: 'オ', ッ: 'ツ', ャ: 'ヤ', ュ: 'ユ', ョ: 'ヨ', ヮ: 'ワ', ヵ: 'カ', ヶ: 'ケ',
  ヲ: 'オ', ヰ: 'イ', ヱ: 'エ',
};

/** Marks an applicant may type for a long vowel or a dash. */
const DASHES = /[ー－‐‑–—―ｰ−]/g;

/** One character of the Zengin account-name set (after the conversion above). */
const ZENGIN_CHARACTER = /^[ｱ-ﾝﾞﾟ0-9A-Z ().\-/]$/u;

/** `text` in the Zengin character set, or null when a character has no form in it (a kanji, an emoji). */
export function toZenginKana(text: string): string | null {
  // Half-width kana first made full-width, so that each kana (and its voiced mark) is one character.
  const katakana = jaconv.toKatakana(jaconv.toZenKana(text.normalize('NFC')));
  const plain = [...katakana].map((character) => SMALL_TO_LARGE[character] ?? character).join('');
  const marked = plain.replace(DASHES, '-').replace(/[・･]/g, '.').replace(/[\s\u3000]+/g, ' ');
  const converted = jaconv.toHanKana(jaconv.toHanAscii(marked)).toUpperCase().trim();
  return [...converted].every((character) => ZENGIN_CHARACTER.test(character)) ? converted : null;
}

/** The account name: surname and given name in the Zengin set, one space between them. */
export function zenginAccountName(kanaLastName: string, kanaFirstName: string): string | null {
  const last = toZenginKana(kanaLastName);
  const first = toZenginKana(kanaFirstName);
  return last && first ? `${last} ${first}` : null;
}
