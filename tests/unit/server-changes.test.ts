import { describe, expect, it } from 'vitest';
import { CachedRows, ChangeFeed } from '../../src/server/db/changes.js';

/** The copies of rarely changing tables that each process keeps until the database says they changed. */
describe('CachedRows over a ChangeFeed', () => {
  function counted(feed: ChangeFeed) {
    let loads = 0;
    let release: (() => void) | null = null;
    let blocked = false;
    const rows = new CachedRows(feed, 'notifications', async () => {
      loads += 1;
      const version = loads;
      if (blocked) await new Promise<void>((resolve) => (release = resolve));
      return [version];
    });
    return {
      rows,
      loads: () => loads,
      block: () => (blocked = true),
      unblock: () => {
        blocked = false;
        release?.();
      },
    };
  }

  it('reads once while listening, again after a change of its table only', async () => {
    const feed = new ChangeFeed();
    feed.setListening(true);
    const cache = counted(feed);
    expect(await cache.rows.get()).toEqual([1]);
    expect(await cache.rows.get()).toEqual([1]);
    feed.changed('maintenance_windows');
    expect(await cache.rows.get()).toEqual([1]);
    feed.changed('notifications');
    expect(await cache.rows.get()).toEqual([2]);
    expect(cache.loads()).toBe(2);
  });

  it('does not keep a read that was under way when the table changed', async () => {
    const feed = new ChangeFeed();
    feed.setListening(true);
    const cache = counted(feed);
    cache.block();
    const early = cache.rows.get();
    feed.changed('notifications');
    cache.unblock();
    expect(await early).toEqual([1]);
    expect(await cache.rows.get()).toEqual([2]);
  });

  it('keeps nothing while notices cannot be heard, and drops what it had when listening stops or starts', async () => {
    const feed = new ChangeFeed();
    const cache = counted(feed);
    await cache.rows.get();
    await cache.rows.get();
    expect(cache.loads()).toBe(2);
    feed.setListening(true);
    await cache.rows.get();
    await cache.rows.get();
    expect(cache.loads()).toBe(3);
    feed.setListening(false);
    await cache.rows.get();
    expect(cache.loads()).toBe(4);
  });

  it('runs a lazy query once: a thenable (as drizzle’s queries are) is not awaited again', async () => {
    const feed = new ChangeFeed();
    feed.setListening(true);
    let runs = 0;
    const query = { then: (resolve: (rows: number[]) => void) => resolve([++runs]) };
    const rows = new CachedRows(feed, 'maintenance_windows', () => query as PromiseLike<number[]>);
    expect(await rows.get()).toEqual([1]);
    expect(await rows.get()).toEqual([1]);
    expect(runs).toBe(1);
  });
});
