import kuromoji from 'kuromoji';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FuriganaReader, sharedFuriganaReader } from '../../src/server/furigana/index.js';

describe('FuriganaReader', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('converts kana-only input without loading the dictionary', async () => {
    const builder = vi.spyOn(kuromoji, 'builder');
    const reader = new FuriganaReader();
    expect(await reader.read('やまだ　はなこ')).toBe('ﾔﾏﾀﾞ ﾊﾅｺ');
    expect(await reader.read('ヴァイオリン')).toBe('ｳﾞｧｲｵﾘﾝ');
    expect(builder).not.toHaveBeenCalled();
    expect(reader.ready).toBe(false);
  });

  it('builds the dictionary once for concurrent first callers', async () => {
    const builder = vi.spyOn(kuromoji, 'builder');
    const reader = new FuriganaReader();
    const [a, b] = await Promise.all([reader.read('山田'), reader.read('佐藤'), reader.warm()]);
    expect([a, b]).toEqual(['ﾔﾏﾀﾞ', 'ｻﾄｳ']);
    expect(await reader.read('花子')).toBe('ﾊﾅｺ');
    expect(builder).toHaveBeenCalledTimes(1);
    expect(reader.ready).toBe(true);
  });

  it('fails on a missing dictionary and tries again on the next call', async () => {
    const builder = vi.spyOn(kuromoji, 'builder');
    const reader = new FuriganaReader({ dicPath: '/nonexistent/kuromoji/dict' });
    await expect(reader.read('山田')).rejects.toThrow();
    await expect(reader.read('山田')).rejects.toThrow();
    expect(builder).toHaveBeenCalledTimes(2);
  });

  it('shares one reader per dictionary in the process', () => {
    expect(sharedFuriganaReader()).toBe(sharedFuriganaReader());
  });
});
