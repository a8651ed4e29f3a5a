import { describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import {
  checkKanaNameLength,
  checkNameLength,
  checkUnusableNameCharacters,
  findUnusableNameCharacters,
} from '../../src/domain/rules/index.js';

const kanji = (n: number) => '山'.repeat(n);
const kana = (n: number) => 'ｱ'.repeat(n);

describe('checkNameLength: last + full-width space + first at most 24', () => {
  it.each([
    [kanji(1), kanji(1), null],
    [kanji(12), kanji(11), null], // 12 + 1 + 11 = 24
    [kanji(12), kanji(12), messages.nameTooLong], // 25
    [kanji(22), kanji(1), null], // 24
    [kanji(23), kanji(1), messages.nameTooLong], // 25
    ['𠮷'.repeat(12), kanji(11), null], // code points: 𠮷 is one character
    [kanji(24), '', null], // an empty part is the schema's 'required'
    ['', kanji(24), null],
  ])('%j %j → %j', (last, first, expected) => {
    expect(checkNameLength(last, first)).toBe(expected);
  });
});

describe('checkKanaNameLength: kana last + space + kana first at most 48', () => {
  it.each([
    [kana(24), kana(23), null], // 48
    [kana(24), kana(24), messages.kanaNameTooLong], // 49
    ['ﾔﾏﾀﾞ', 'ﾀﾛｳ', null],
    [kana(47), '', null],
  ])('%j %j → %j', (last, first, expected) => {
    expect(checkKanaNameLength(last, first)).toBe(expected);
  });
});

describe('findUnusableNameCharacters / checkUnusableNameCharacters', () => {
  it.each([
    ['山田', []],
    ['やまだ', []],
    ['ヤマダ', []],
    ['ﾔﾏﾀﾞ', []],
    ['佐々木', []],
    ['〆木', []],
    ['一ヶ谷', []],
    ['ジョン・スミス', []],
    ['ジョン　ポール', []],
    ['マリー', []],
    ['Ｓｍｉｔｈ', []],
    ['Smith2', []],
    ['＝', []],
    ['𠮷田', ['𠮷']],
    ['𠮷田𠮷', ['𠮷']],
    ['山田①', ['①']],
    ['㈱山田', ['㈱']],
    ['はな♡', ['♡']],
    ['☆子', ['☆']],
    ['花😀', ['😀']],
    ['山-田', ['-']],
    ['山 田', [' ']],
    ['O\'Brien', ["'"]],
    ['ゔ', ['ゔ']],
    ['①♡①☆', ['①', '♡', '☆']],
  ])('%j → %j', (text, expected) => {
    expect(findUnusableNameCharacters(text)).toEqual(expected);
    expect(checkUnusableNameCharacters(text)).toBe(
      expected.length === 0 ? null : messages.unusableCharacters(expected.join('')),
    );
  });

  it('words the message as the spec does', () => {
    expect(checkUnusableNameCharacters('𠮷田')).toBe('𠮷 は使用できません。');
  });
});
