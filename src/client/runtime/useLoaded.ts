import { useEffect, useEffectEvent, useState, type DependencyList } from 'react';

interface Loaded<T> {
  value: T;
  /** The deps the value was loaded for: a value of other deps is never handed out. */
  deps: DependencyList;
}

const sameDeps = (a: DependencyList, b: DependencyList) => a.length === b.length && a.every((dep, index) => Object.is(dep, b[index]));

/**
 * What `load` resolves to: loaded on mount and again whenever `deps` change (as an effect's
 * dependency list), null until it is in. A failure goes to `fail` (a screen passes the one of
 * useFailure, which opens the flow's error page). A result or failure that arrives after the
 * component unmounted, or after the deps changed, is dropped; while the new deps load, the
 * value is null again, never the one of the old deps.
 *
 * `load` and `fail` are read when the effect runs: they need not be stable, and are not deps.
 */
export function useLoaded<T>(load: () => Promise<T>, deps: DependencyList, fail: (error: unknown) => void): T | null {
  const [loaded, setLoaded] = useState<Loaded<T> | null>(null);
  const start = useEffectEvent(() => load());
  const report = useEffectEvent((error: unknown) => fail(error));

  useEffect(() => {
    let current = true;
    // A load that throws before its promise is made fails like one that rejects.
    new Promise<T>((resolve) => resolve(start())).then(
      (value) => current && setLoaded({ value, deps }),
      (error: unknown) => current && report(error),
    );
    return () => {
      current = false;
    };
    // The caller's deps are the effect's (React's rule of hooks cannot see through the spread).
  }, deps);

  return loaded && sameDeps(loaded.deps, deps) ? loaded.value : null;
}
