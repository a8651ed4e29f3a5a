import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { candidatesOf, parseJpostalFile, type JpostalRow } from '../../src/server/postal/jpostal.js';
import { PostalLookup } from '../../src/server/postal/index.js';

const row = (code: string, town: string, kanaTown: string, officeStreet = '', officeName = ''): JpostalRow => [
  `_${code}`,
  '福岡県',
  '福岡市中央区',
  town,
  officeStreet,
  officeName,
  'ﾌｸｵｶｹﾝ',
  'ﾌｸｵｶｼﾁｭｳｵｳｸ',
  kanaTown,
];

const jsonp = (rows: JpostalRow[]) => `jQuery_jpostal_callback(\n${JSON.stringify(rows)}\n);\n`;

describe('jquery-jpostal-ja rows', () => {
  it('parses the JSONP file and refuses another shape with the file name', () => {
    expect(parseJpostalFile(jsonp([row('8100001', '天神', 'ﾃﾝｼﾞﾝ')]), '810.json')).toHaveLength(1);
    expect(() => parseJpostalFile('[]', '810.json')).toThrow(/810\.json/);
    expect(() => parseJpostalFile('jQuery_jpostal_callback([[1,2]])', '810.json')).toThrow(/unexpected row/);
  });

  it.each([
    ['天神（次のビルを除く）', 'ﾃﾝｼﾞﾝ(ﾂｷﾞﾉﾋﾞﾙｦﾉｿﾞｸ)', '天神', 'ﾃﾝｼﾞﾝ'],
    ['以下に掲載がない場合', 'ｲｶﾆｹｲｻｲｶﾞﾅｲﾊﾞｱｲ', null, null],
    ['小菅村の次に６６４番地以降がくる場合', 'ｺｽｹﾞﾑﾗﾉﾂｷﾞﾆ664ﾊﾞﾝﾁｲｺｳｶﾞｸﾙﾊﾞｱｲ', null, null],
    ['大手町（その他）', 'ｵｵﾃﾏﾁ(ｿﾉﾀ)', '大手町', 'ｵｵﾃﾏﾁ'],
    ['藤崎（１～３丁目）', 'ﾌｼﾞｻｷ(1-3ﾁｮｳﾒ)', '藤崎', 'ﾌｼﾞｻｷ'],
    ['名駅ミッドランドスクエア（高層棟）１階', 'ﾒｲｴｷﾐｯﾄﾞﾗﾝﾄﾞｽｸｴｱ(ｺｳｿｳﾄｳ)1ｶｲ', '名駅ミッドランドスクエア（高層棟）１階', 'ﾒｲｴｷﾐｯﾄﾞﾗﾝﾄﾞｽｸｴｱ(ｺｳｿｳﾄｳ)1ｶｲ'],
    ['一円', 'ｲﾁｴﾝ', '一円', 'ｲﾁｴﾝ'],
  ])('turns the town %s into the section %s', (town, kanaTown, section, kanaSection) => {
    const [candidate] = candidatesOf('8100001', [row('8100001', town, kanaTown)]);
    expect(candidate).toMatchObject({ section, kanaSection, chome: null });
  });

  it('splits a chome in digits off the town, and leaves one in kanji numerals', () => {
    expect(candidatesOf('8100001', [row('8100001', '昭和５丁目', 'ｼｮｳﾜ5ﾁｮｳﾒ')])[0]).toMatchObject({
      section: '昭和',
      chome: '５丁目',
      kanaSection: 'ｼｮｳﾜ',
      kanaChome: '5ﾁｮｳﾒ',
      addressFull: '福岡県福岡市中央区昭和５丁目',
    });
    expect(candidatesOf('8100001', [row('8100001', '昭和八丁目', 'ｼｮｳﾜﾊｯﾁｮｳﾒ')])[0]).toMatchObject({ section: '昭和八丁目', chome: null });
  });

  it('keeps only the chome of a large office, and one candidate for offices of one building', () => {
    const rows = [
      row('8108599', '天神', 'ﾃﾝｼﾞﾝ', '十二丁目１番１号', '株式会社　甲'),
      row('8108599', '天神', 'ﾃﾝｼﾞﾝ', '十二丁目１番２号', '株式会社　乙'),
    ];
    expect(candidatesOf('8108599', rows)).toEqual([
      expect.objectContaining({ id: 1, section: '天神', chome: '十二丁目', kanaChome: '12ﾁｮｳﾒ', addressFull: '福岡県福岡市中央区天神十二丁目' }),
    ]);
    expect(candidatesOf('8108599', [row('8108599', '天神', 'ﾃﾝｼﾞﾝ', '４４', '株式会社　丙')])[0]).toMatchObject({ chome: null });
  });

  it('gives a candidate the same code whatever its position', () => {
    const a = row('8160000', '', '');
    const b: JpostalRow = ['_8160000', '福岡県', '大野城市', '', '', '', 'ﾌｸｵｶｹﾝ', 'ｵｵﾉｼﾞｮｳｼ', ''];
    const [first] = candidatesOf('8160000', [a, b]);
    const [, second] = candidatesOf('8160000', [b, a]);
    expect(second?.addressCode).toBe(first?.addressCode);
    expect(first?.addressCode).toMatch(/^8160000-[0-9a-f]{8}$/);
  });
});

describe('PostalLookup', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  async function folder(files: Record<string, JpostalRow[]>): Promise<string> {
    dir = await mkdtemp(path.join(tmpdir(), 'jpostal-'));
    for (const [name, rows] of Object.entries(files)) await writeFile(path.join(dir, `${name}.json`), jsonp(rows));
    return dir;
  }

  it('skips the 3-digit summary row and answers [] for a prefix without a file', async () => {
    const summary: JpostalRow = ['_810', '福岡県', '福岡市中央区', '', '', '', 'ﾌｸｵｶｹﾝ', 'ﾌｸｵｶｼﾁｭｳｵｳｸ', ''];
    const lookup = new PostalLookup({ dir: await folder({ '810': [summary, row('8100001', '天神', 'ﾃﾝｼﾞﾝ')] }) });
    expect(await lookup.find('8100001')).toHaveLength(1);
    expect(await lookup.find('8100000')).toEqual([]);
    expect(await lookup.find('9990000')).toEqual([]);
    await expect(lookup.find('810')).rejects.toThrow(/7-digit/);
  });

  it('reads a file once, shares a first read, and keeps at most maxFiles', async () => {
    const lookup = new PostalLookup({
      dir: await folder({ '810': [row('8100001', '天神', 'ﾃﾝｼﾞﾝ')], '812': [row('8120011', '博多駅前', 'ﾊｶﾀｴｷﾏｴ')], '816': [row('8160000', '', '')] }),
      maxFiles: 2,
    });
    const [a, b] = await Promise.all([lookup.find('8100001'), lookup.find('8100001')]);
    expect(a).toBe(b);
    await lookup.find('8120011');
    expect(lookup.cachedFiles).toBe(2);
    // Touching 810 makes 812 the least recently used one, so reading 816 drops 812.
    await lookup.find('8100001');
    await lookup.find('8160000');
    expect(lookup.cachedFiles).toBe(2);
    await rm(path.join(dir ?? '', '810.json'));
    await rm(path.join(dir ?? '', '812.json'));
    // 810 still answers from memory; 812 is read again, and is gone.
    expect(await lookup.find('8100001')).toBe(a);
    expect(await lookup.find('8120011')).toEqual([]);
  });

  it('finds a candidate by code only under its own postal code', async () => {
    const lookup = new PostalLookup({ dir: await folder({ '810': [row('8100001', '天神', 'ﾃﾝｼﾞﾝ')] }) });
    const [candidate] = await lookup.find('8100001');
    expect(await lookup.candidate('8100001', candidate?.addressCode ?? '')).toBe(candidate);
    expect(await lookup.candidate('8100002', candidate?.addressCode ?? '')).toBeUndefined();
    expect(await lookup.candidate('81000', candidate?.addressCode ?? '')).toBeUndefined();
  });
});
