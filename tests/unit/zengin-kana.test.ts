import { describe, expect, it } from 'vitest';
import { toZenginKana, zenginAccountName } from '../../src/domain/zengin-kana.js';

describe('Zengin account-name kana', () => {
  it.each([
    ['ﾔﾏﾀﾞ', 'ﾔﾏﾀﾞ'],
    ['やまだ', 'ﾔﾏﾀﾞ'],
    ['ヤマダ', 'ﾔﾏﾀﾞ'],
    // Small kana are written large.
    ['きゅうよ', 'ｷﾕｳﾖ'],
    ['ｶﾞｯｺｳ', 'ｶﾞﾂｺｳ'],
    ['ヴァイオリン', 'ｳﾞｱｲｵﾘﾝ'],
    ['ヶ', 'ｹ'],
    // ヲ ヰ ヱ by their sound.
    ['ヲヰヱ', 'ｵｲｴ'],
    // The long vowel mark and dashes as hyphen-minus, the middle dot as a full stop.
    ['ジョージ・ルーカス', 'ｼﾞﾖ-ｼﾞ.ﾙ-ｶｽ'],
    ['ﾙｰｶｽ', 'ﾙ-ｶｽ'],
    // Full-width Latin letters and digits half-width, upper case; spaces one.
    ['ｓｍｉｔｈ　ｊｏｈｎ', 'SMITH JOHN'],
    ['ぱぴぷ　　ぺぽ ', 'ﾊﾟﾋﾟﾌﾟ ﾍﾟﾎﾟ'],
    ['8-1 ﾃﾝｼﾞﾝﾋﾞﾙ207', '8-1 ﾃﾝｼﾞﾝﾋﾞﾙ207'],
    ['（カ）', '(ｶ)'],
  ])('%s → %s', (input, expected) => {
    expect(toZenginKana(input)).toBe(expected);
  });

  it.each(['山田', 'ﾔﾏﾀﾞ😀', 'ｱ,ｲ', 'ｱ&ｲ'])('refuses %s: a character with no form in the set', (input) => {
    expect(toZenginKana(input)).toBeNull();
  });

  it('joins surname and given name with one space', () => {
    expect(zenginAccountName('ﾔﾏﾀﾞ', 'ﾊﾅｺ')).toBe('ﾔﾏﾀﾞ ﾊﾅｺ');
    expect(zenginAccountName('しょうじ', 'りょう')).toBe('ｼﾖｳｼﾞ ﾘﾖｳ');
    expect(zenginAccountName('山田', 'ﾊﾅｺ')).toBeNull();
  });
});
