import { describe, expect, it } from 'vitest';
import { batched } from '../../src/server/db/batched';

/** A run whose batches end when the test says so. */
function controlledRun() {
  const batches: number[][] = [];
  const ends: { resolve(): void; reject(error: Error): void }[] = [];
  const run = (items: number[]) =>
    new Promise<void>((resolve, reject) => {
      batches.push(items);
      ends.push({ resolve, reject });
    });
  return { batches, ends, run };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('batched (group commit)', () => {
  it('runs a lone call at once, and the calls made meanwhile together in the next batch', async () => {
    const { batches, ends, run } = controlledRun();
    const call = batched(run);
    const first = call(1);
    await tick();
    expect(batches).toEqual([[1]]);
    const later = [call(2), call(3), call(4)];
    await tick();
    expect(batches).toEqual([[1]]);
    ends[0]?.resolve();
    await first;
    await tick();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    ends[1]?.resolve();
    await Promise.all(later);
    call(5);
    await tick();
    expect(batches).toEqual([[1], [2, 3, 4], [5]]);
  });

  it('rejects the calls of a failed batch only, and goes on with the next', async () => {
    const { batches, ends, run } = controlledRun();
    const call = batched(run);
    const first = call(1);
    const second = [call(2), call(3)];
    await tick();
    ends[0]?.reject(new Error('database down'));
    await expect(first).rejects.toThrow('database down');
    await tick();
    expect(batches).toEqual([[1], [2, 3]]);
    ends[1]?.resolve();
    await expect(Promise.all(second)).resolves.toEqual([undefined, undefined]);
  });
});
