import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useLoaded } from '../../src/client/runtime/useLoaded';

/** A promise the test settles by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Loads one pending promise per id, shows the value, records failures. */
function harness() {
  const pending = new Map<string, ReturnType<typeof deferred<string>>>();
  const load = vi.fn((id: string) => {
    const next = deferred<string>();
    pending.set(id, next);
    return next.promise;
  });
  const fail = vi.fn<(error: unknown) => void>();
  function Shows({ id }: { id: string }) {
    const value = useLoaded(() => load(id), [id], fail);
    return <p data-testid="value">{value ?? 'loading'}</p>;
  }
  const settle = async (id: string, how: { value: string } | { error: unknown }) => {
    await act(async () => {
      const entry = pending.get(id);
      if ('value' in how) entry?.resolve(how.value);
      else entry?.reject(how.error);
    });
  };
  return { Shows, load, fail, settle, shown: () => screen.getByTestId('value').textContent };
}

describe('useLoaded', () => {
  it('is null until the load resolves, then the value; loads once while the deps stay', async () => {
    const { Shows, load, fail, settle, shown } = harness();
    const { rerender } = render(<Shows id="a" />);
    expect(shown()).toBe('loading');
    await settle('a', { value: 'A' });
    expect(shown()).toBe('A');
    rerender(<Shows id="a" />);
    expect(shown()).toBe('A');
    expect(load).toHaveBeenCalledTimes(1);
    expect(fail).not.toHaveBeenCalled();
  });

  it('hands a failure to fail and stays null', async () => {
    const { Shows, fail, settle, shown } = harness();
    render(<Shows id="a" />);
    const error = new Error('503');
    await settle('a', { error });
    expect(fail).toHaveBeenCalledExactlyOnceWith(error);
    expect(shown()).toBe('loading');
  });

  it('reports a load that throws before it returns a promise', async () => {
    const fail = vi.fn<(error: unknown) => void>();
    const error = new Error('thrown');
    function Throws() {
      const value = useLoaded<string>(() => {
        throw error;
      }, [], fail);
      return <p>{value ?? 'loading'}</p>;
    }
    render(<Throws />);
    await act(async () => {});
    expect(fail).toHaveBeenCalledExactlyOnceWith(error);
  });

  it('drops a result or a failure that arrives after unmount', async () => {
    const { Shows, fail, settle } = harness();
    const errors = vi.spyOn(console, 'error');
    const first = render(<Shows id="a" />);
    first.unmount();
    await settle('a', { value: 'A' });
    const second = render(<Shows id="b" />);
    second.unmount();
    await settle('b', { error: new Error('late') });
    expect(fail).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  it('loads again when the deps change, never shows the old value, and drops the old load', async () => {
    const { Shows, load, fail, settle, shown } = harness();
    const { rerender } = render(<Shows id="a" />);
    await settle('a', { value: 'A' });
    expect(shown()).toBe('A');

    rerender(<Shows id="b" />);
    expect(load).toHaveBeenLastCalledWith('b');
    expect(shown()).toBe('loading');

    // c is asked before b answers: b's late answer (or failure) must not show.
    rerender(<Shows id="c" />);
    await settle('b', { error: new Error('b failed late') });
    await settle('c', { value: 'C' });
    expect(shown()).toBe('C');

    // e answers before d: d's late value must not replace it.
    rerender(<Shows id="d" />);
    rerender(<Shows id="e" />);
    await settle('e', { value: 'E' });
    await settle('d', { value: 'D' });
    expect(shown()).toBe('E');
    expect(fail).not.toHaveBeenCalled();
    expect(load.mock.calls.map(([id]) => id)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('uses the latest load and fail without loading again when only they change', async () => {
    const fails = [vi.fn<(error: unknown) => void>(), vi.fn<(error: unknown) => void>()];
    const next = deferred<string>();
    const loads = [vi.fn(() => next.promise), vi.fn(() => next.promise)];
    function Uses({ round }: { round: 0 | 1 }) {
      const value = useLoaded(loads[round]!, [], fails[round]!);
      return <p>{value ?? 'loading'}</p>;
    }
    const { rerender } = render(<Uses round={0} />);
    rerender(<Uses round={1} />);
    const error = new Error('late');
    await act(async () => next.reject(error));
    expect(loads[0]).toHaveBeenCalledTimes(1);
    expect(loads[1]).not.toHaveBeenCalled();
    expect(fails[0]).not.toHaveBeenCalled();
    expect(fails[1]).toHaveBeenCalledExactlyOnceWith(error);
  });
});
