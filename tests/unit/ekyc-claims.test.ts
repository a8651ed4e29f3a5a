import { describe, expect, it } from 'vitest';
import { compareClaims, normalizeAddress, normalizeText } from '../../src/server/ekyc/claims.js';

const entered = {
  lastName: '山田',
  firstName: '花子',
  kanaLastName: 'ﾔﾏﾀﾞ',
  kanaFirstName: 'ﾊﾅｺ',
  birthday: '1990-01-15',
  address: '福岡県福岡市中央区天神',
  subAddress: '2-13-1 天神ビル5F',
};

const claims = { sub: 'x', name: '山田　花子', birthdate: '1990-01-15', address: { formatted: '福岡県福岡市中央区天神二丁目13番1号' } };

describe('the claims of an OpenID Connect identity check against the entry', () => {
  it('normalises width, spaces and dashes', () => {
    expect(normalizeText('ＡＢＣ　１２３ ｱｲｳ')).toBe('abc123アイウ');
    expect(normalizeAddress('天神二丁目13番1号')).toBe('天神2-13-1');
    expect(normalizeAddress('天神２－１３－１')).toBe('天神2-13-1');
    expect(normalizeAddress('本町十二丁目3番地4')).toBe('本町12-3-4');
  });

  it('matches the same person written differently (full-width space, kanji numerals, the building left out)', () => {
    expect(compareClaims(claims, entered)).toEqual([]);
    expect(compareClaims({ ...claims, name: undefined, family_name: '山田', given_name: '花子' }, entered)).toEqual([]);
    expect(compareClaims({ ...claims, name: 'やまだ はなこ' }, entered)).toEqual([]);
  });

  it('names each field that differs', () => {
    expect(compareClaims({ ...claims, name: '山田 花代' }, entered)).toEqual(['name']);
    expect(compareClaims({ ...claims, birthdate: '1990-01-16' }, entered)).toEqual(['birthday']);
    expect(compareClaims({ ...claims, address: { formatted: '福岡県福岡市中央区天神二丁目13番10号' } }, entered)).toEqual(['address']);
    expect(compareClaims({ ...claims, address: { formatted: '福岡県福岡市中央区' } }, entered)).toEqual(['address']);
    expect(compareClaims({ sub: 'x' }, entered)).toEqual(['name', 'birthday', 'address']);
  });

  it('does not let a shorter lot number pass as a longer one', () => {
    expect(compareClaims({ ...claims, address: { formatted: '福岡県福岡市中央区天神二丁目13番1' } }, { ...entered, subAddress: '2-13-10' })).toEqual(['address']);
  });

  it('matches an address typed whole (no postal code matched) written as the register writes it', () => {
    const typed = { ...entered, address: undefined, subAddress: undefined, noMatchingAddress: true, tempAddressPrefecture: '東京都', tempAddress: '千代田区丸の内1-1-1' };
    expect(compareClaims({ ...claims, address: { formatted: '東京都千代田区丸の内一丁目1番1号' } }, typed)).toEqual([]);
    expect(compareClaims({ ...claims, address: { formatted: '東京都千代田区丸の内1-1-1' } }, typed)).toEqual([]);
    // Not without the lot number, nor with another one.
    expect(compareClaims({ ...claims, address: { formatted: '東京都千代田区丸の内' } }, typed)).toEqual(['address']);
    expect(compareClaims({ ...claims, address: { formatted: '東京都千代田区丸の内1-1-10' } }, typed)).toEqual(['address']);
  });
});
