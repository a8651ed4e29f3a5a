import { describe, expect, it } from 'vitest';
import { normalizeKanaAddress, normalizeKanaName, toHalfWidthKatakana } from '../../src/domain/rules/index.js';

// The schemas' patterns, so every normalised kana is shown to pass them.
const KANA_NAME = /^[\uff66-\uff9f]+$/;
const KANA_ADDRESS = /^[\uff66-\uff9fA-Z0-9().\- ]*$/;

describe('normalizeKanaName: spaces removed, uppercase, small kana large, half-width katakana', () => {
  it.each([
    ['ぱぴぷ', 'ﾊﾟﾋﾟﾌﾟ'],
    ['ｧ', 'ｱ'],
    ['やまだ たろう', 'ﾔﾏﾀﾞﾀﾛｳ'],
    ['ｷｬｯﾄ', 'ｷﾔﾂﾄ'],
    ['ヤマダ　タロウ', 'ﾔﾏﾀﾞﾀﾛｳ'],
    ['  ｽｽﾞｷ ', 'ｽｽﾞｷ'],
    ['がっこう', 'ｶﾞﾂｺｳ'],
    ['ぁぃぅぇぉっゃゅょゎ', 'ｱｲｳｴｵﾂﾔﾕﾖﾜ'],
    ['ァィゥェォッャュョヮ', 'ｱｲｳｴｵﾂﾔﾕﾖﾜ'],
    ['ｧｨｩｪｫｯｬｭｮ', 'ｱｲｳｴｵﾂﾔﾕﾖ'],
    ['ヴィクトリア', 'ｳﾞｲｸﾄﾘｱ'],
    ['ゆうこー', 'ﾕｳｺｰ'],
    ['ｶﾞｸ', 'ｶﾞｸ'],
    ['か\u3099', 'ｶﾞ'], // combining dakuten (macOS, pastes)
    ['ヶ', 'ｹ'],
  ])('%j → %j', (input, expected) => {
    expect(normalizeKanaName(input)).toBe(expected);
    expect(expected).toMatch(KANA_NAME);
  });

  it.each([
    ['smith', 'SMITH'],
    ['Ｓｍｉｔｈ', 'SMITH'],
    ['山田', '山田'],
  ])('%j → %j (left for the schema to refuse)', (input, expected) => {
    expect(normalizeKanaName(input)).toBe(expected);
    expect(expected).not.toMatch(KANA_NAME);
  });

  it('is idempotent', () => {
    const once = normalizeKanaName('きゃっと　ぱーく');
    expect(normalizeKanaName(once)).toBe(once);
  });
});

describe('normalizeKanaAddress: kana as names, spaces kept single, ASCII half-width', () => {
  it.each([
    ['なかく　てんじん  ', 'ﾅｶｸ ﾃﾝｼﾞﾝ'],
    ['めぞん　いっこく　１０１', 'ﾒｿﾞﾝ ｲﾂｺｸ 101'],
    ['ハイツ（ａ）．', 'ﾊｲﾂ(A).'],
    ['１‐２－３', '1-2-3'],
    ['1―2−3', '1-2-3'],
    ['１ー２ー３', '1-2-3'],
    ['コーポ', 'ｺｰﾎﾟ'],
    ['ｼｬﾄｰ 2F', 'ｼﾔﾄｰ 2F'],
    ['ﾋﾞﾙ   ５かい', 'ﾋﾞﾙ 5ｶｲ'],
  ])('%j → %j', (input, expected) => {
    expect(normalizeKanaAddress(input)).toBe(expected);
    expect(expected).toMatch(KANA_ADDRESS);
  });
});

describe('toHalfWidthKatakana: width only, for postal data and furigana', () => {
  it.each([
    ['クマモトシ チュウオウク', 'ｸﾏﾓﾄｼ ﾁｭｳｵｳｸ'],
    ['ふくおかけん', 'ﾌｸｵｶｹﾝ'],
    ['ガッコウ', 'ｶﾞｯｺｳ'],
    ['ｱｲｳ', 'ｱｲｳ'],
  ])('%j → %j', (input, expected) => {
    expect(toHalfWidthKatakana(input)).toBe(expected);
  });
});
