import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatheredWrites } from '../../src/server/db/gathered-writes.js';

/**
 * The gathering of a worker's follow-up writes (db/gathered-writes.ts): rows added within the
 * gathering are written in one call, rows added during a write go in the next, a hurried wait
 * writes at once, and a failed write is reported, not repeated.
 */
describe('GatheredWrites', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A writer whose calls the test sees, each held until the test ends it when `held`. */
  function recorder(held = false) {
    const calls: string[][] = [];
    const ends: (() => void)[] = [];
    const write = (rows: string[]) => {
      calls.push(rows);
      return held ? new Promise<void>((resolve) => ends.push(resolve)) : Promise.resolve();
    };
    return { calls, ends, write };
  }

  it('writes the rows added within gatherMs of the first in one call, after gatherMs', async () => {
    vi.useFakeTimers();
    const { calls, write } = recorder();
    const writes = new GatheredWrites(250, write, () => undefined);
    writes.add('a');
    await vi.advanceTimersByTimeAsync(100);
    writes.add('b');
    writes.add('c');
    await vi.advanceTimersByTimeAsync(149);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual([['a', 'b', 'c']]);
    expect(writes.pending).toBeNull();
  });

  it('puts the rows added during a write in the next, gathered again', async () => {
    vi.useFakeTimers();
    const { calls, ends, write } = recorder(true);
    const writes = new GatheredWrites(250, write, () => undefined);
    writes.add('a');
    await vi.advanceTimersByTimeAsync(250);
    writes.add('b');
    ends.shift()?.();
    await vi.advanceTimersByTimeAsync(249);
    expect(calls).toEqual([['a']]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual([['a'], ['b']]);
    ends.shift()?.();
    await writes.pending;
  });

  it('writes at once inside hurried(), ending a gathering under way', async () => {
    const { calls, write } = recorder();
    const writes = new GatheredWrites(60 * 60 * 1000, write, () => undefined);
    writes.add('a');
    await writes.hurried(async () => {
      await writes.pending;
      writes.add('b');
      await writes.pending;
    });
    expect(calls).toEqual([['a'], ['b']]);
  });

  it('reports a failed write with its rows, and writes them no more', async () => {
    const failures: string[][] = [];
    let calls = 0;
    const writes = new GatheredWrites<string>(
      0,
      () => {
        calls += 1;
        return Promise.reject(new Error('database down'));
      },
      (_error, rows) => failures.push(rows),
    );
    writes.add('a');
    await writes.pending;
    expect(failures).toEqual([['a']]);
    expect(calls).toBe(1);
    expect(writes.pending).toBeNull();
  });
});
