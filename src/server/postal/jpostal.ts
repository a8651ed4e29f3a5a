import { createHash } from 'node:crypto';
import type { AddressCandidate } from '../../domain/steps.js';

/**
 * Japan Post's postal-code data as shipped by the npm package jquery-jpostal-ja: one file per
 * first 3 digits, `json/<NNN>.json`, holding a JSONP call `jQuery_jpostal_callback([...rows])`.
 *
 * A row is `["_NNNNNNN", 都道府県, 市区町村, 町域, 大口事業所の番地, 大口事業所の名称,
 * 都道府県カナ, 市区町村カナ, 町域カナ]` (the package's README calls the fields %3-%10), kana
 * in half-width katakana. The leading underscore keeps the code a string in the package's own
 * JavaScript. A file also holds a 3-digit summary row (`_860`: the first area of the prefix),
 * which is no address and is skipped.
 *
 * Columns 4 and 5 are only set on 大口事業所 codes, the individual codes Japan Post gives a
 * large office (a city hall, a company's head office, a PO box): column 4 is the rest of the
 * office's address (`２丁目１番１号`, sometimes with a 私書箱 note), column 5 the office's name.
 * A bank form asks for the applicant's home, so the office name is never part of the address;
 * of column 4 only a leading `N丁目` is kept (as the chome), the 番地 part being what the
 * applicant types into 番地・建物名 like everyone else.
 */

export type JpostalRow = [
  code: string,
  prefecture: string,
  municipality: string,
  town: string,
  officeStreet: string,
  officeName: string,
  kanaPrefecture: string,
  kanaMunicipality: string,
  kanaTown: string,
];

export type { AddressCandidate } from '../../domain/steps.js';

const JSONP = /^\s*jQuery_jpostal_callback\(\s*([\s\S]*?)\s*\)\s*;?\s*$/;

/** Parses one json/<NNN>.json file; throws with the file name on any other shape. */
export function parseJpostalFile(text: string, file: string): JpostalRow[] {
  const body = JSONP.exec(text)?.[1];
  if (body === undefined) throw new Error(`${file}: not a jQuery_jpostal_callback(...) file`);
  const data: unknown = JSON.parse(body);
  if (!Array.isArray(data)) throw new Error(`${file}: the callback argument is not an array`);
  const rows: JpostalRow[] = [];
  for (const row of data) {
    if (!Array.isArray(row) || row.length < 9 || !row.slice(0, 9).every((cell) => typeof cell === 'string')) {
      throw new Error(`${file}: unexpected row ${JSON.stringify(row)}`);
    }
    rows.push(row.slice(0, 9) as JpostalRow);
  }
  return rows;
}

/**
 * Japan Post's notes that are not part of any address. The package strips most of them
 * already (以下に掲載がない場合, （次のビルを除く）, （その他）, （１～３丁目）… are gone from
 * 2.14.x); these patterns are a safety net for what it leaves or may leave in a later
 * version. Building floors (`…ビル１階`, `（高層棟）`) are real addresses and stay.
 */
const TOWN_NOTES: RegExp[] = [
  /以下に掲載がない場合$/,
  /^.*の次に.*がくる場合$/,
  /（(?:その他|次のビルを除く|地階・階層不明|丁目|番地|[^（）]*[～〜、][^（）]*|[^（）]*(?:以外|除く|を含む|以上|以降|以下)[^（）]*)）$/,
];
const KANA_TOWN_NOTES: RegExp[] = [
  /ｲｶﾆｹｲｻｲｶﾞﾅｲﾊﾞｱｲ$/,
  /^.*ﾉﾂｷﾞﾆ.*ｶﾞｸﾙﾊﾞｱｲ$/,
  /\((?:ｿﾉﾀ|ﾂｷﾞﾉﾋﾞﾙｦﾉｿﾞｸ|ﾁｶｲ･ｶｲｿｳﾌﾒｲ|ﾁｮｳﾒ|ﾊﾞﾝﾁ|[^()]*[-~､][^()]*|[^()]*(?:ｲｶﾞｲ|ﾉｿﾞｸ|ｦﾌｸﾑ|ｲｼﾞｮｳ|ｲｺｳ|ｲｶ)[^()]*)\)$/,
];

function stripNotes(value: string, notes: RegExp[]): string {
  let result = value;
  for (const note of notes) result = result.replace(note, '');
  return result.trim();
}

const FULL_WIDTH_DIGITS = /[０-９]/g;
const toHalfWidthDigits = (value: string) =>
  value.replace(FULL_WIDTH_DIGITS, (digit) => String.fromCharCode(digit.charCodeAt(0) - 0xfee0));

const KANJI_DIGITS: Readonly<Record<string, number>> = { 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** '５' -> 5, '二' -> 2, '十二' -> 12, '二十' -> 20; null for anything else (or above 99). */
function chomeNumber(text: string): number | null {
  if (/^[０-９]+$/.test(text)) return Number(toHalfWidthDigits(text));
  const match = /^([一二三四五六七八九]?)(十?)([一二三四五六七八九]?)$/.exec(text);
  if (!match || text === '') return null;
  const [, tens = '', ten = '', ones = ''] = match;
  if (ten === '') return tens !== '' && ones === '' ? (KANJI_DIGITS[tens] ?? null) : null;
  return (tens === '' ? 1 : (KANJI_DIGITS[tens] ?? 0)) * 10 + (ones === '' ? 0 : (KANJI_DIGITS[ones] ?? 0));
}

/**
 * Splits a trailing `N丁目` off a town when its kana ends in the same number + ﾁｮｳﾒ
 * (`昭和５丁目` / `ｼｮｳﾜ5ﾁｮｳﾒ`). Chome written in kanji numerals stay in the section: their kana
 * reading (ﾊｯﾁｮｳﾒ, ｲｯﾁｮｳﾒ…) cannot be cut off reliably.
 */
function splitChome(
  section: string,
  kanaSection: string,
): { section: string; chome: string | null; kanaSection: string; kanaChome: string | null } {
  const match = /^(.+?)([０-９]+丁目)$/.exec(section);
  if (match?.[1] && match[2]) {
    const kanaChome = `${toHalfWidthDigits(match[2].slice(0, -2))}ﾁｮｳﾒ`;
    if (kanaSection.endsWith(kanaChome) && kanaSection.length > kanaChome.length) {
      return { section: match[1], chome: match[2], kanaSection: kanaSection.slice(0, -kanaChome.length), kanaChome };
    }
  }
  return { section, chome: null, kanaSection, kanaChome: null };
}

function addressCodeOf(postalNumber: string, row: JpostalRow): string {
  const digest = createHash('sha256').update(row.slice(1, 5).join('\u0000')).digest('hex');
  return `${postalNumber}-${digest.slice(0, 8)}`;
}

const nullIfEmpty = (value: string): string | null => (value === '' ? null : value);

/** The candidates of one 7-digit code, in the file's order (Japan Post's order). */
export function candidatesOf(postalNumber: string, rows: readonly JpostalRow[]): AddressCandidate[] {
  const candidates: AddressCandidate[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const [, prefecture, municipality, town, officeStreet, , kanaPrefecture, kanaMunicipality, kanaTown] = row;
    let parts: ReturnType<typeof splitChome>;
    if (officeStreet !== '') {
      // A 大口事業所 code: the office's town, and the chome its street address begins with.
      const chome = /^(?:[０-９]+|[一二三四五六七八九十]+)丁目/.exec(officeStreet)?.[0] ?? null;
      const number = chome ? chomeNumber(chome.slice(0, -2)) : null;
      parts = {
        section: stripNotes(town, TOWN_NOTES),
        chome: number === null ? null : chome,
        kanaSection: stripNotes(kanaTown, KANA_TOWN_NOTES),
        // Japan Post writes numbers in kana fields as digits (ｷｸｽｲ3ｼﾞｮｳ); so do we.
        kanaChome: number === null ? null : `${number}ﾁｮｳﾒ`,
      };
    } else {
      parts = splitChome(stripNotes(town, TOWN_NOTES), stripNotes(kanaTown, KANA_TOWN_NOTES));
    }
    const addressCode = addressCodeOf(postalNumber, row);
    // Several offices of one building share a town and chome: one candidate is enough.
    const key = [prefecture, municipality, parts.section, parts.chome].join('\u0000');
    if (seen.has(key)) continue;
    seen.add(key);
    candidates.push({
      id: candidates.length + 1,
      addressCode,
      addressFull: `${prefecture}${municipality}${parts.section}${parts.chome ?? ''}`,
      prefecture,
      municipality,
      section: nullIfEmpty(parts.section),
      chome: parts.chome,
      kanaPrefecture,
      kanaMunicipality,
      kanaSection: nullIfEmpty(parts.kanaSection),
      kanaChome: parts.kanaChome,
    });
  }
  return candidates;
}
