/**
 * Group commit: `run` takes the items of every call made while its previous batch was running,
 * all at once. A call when nothing runs starts a batch of its own at once, so a lone caller
 * waits no longer than before; under load the statements of several callers become one. Each
 * call settles with its batch (an error rejects every call of that batch, and only those).
 */
export function batched<T>(run: (items: T[]) => Promise<void>): (item: T) => Promise<void> {
  type Waiting = { items: T[]; settles: { resolve(): void; reject(error: unknown): void }[] };
  let busy = false;
  let next: Waiting | null = null;
  const launch = ({ items, settles }: Waiting): void => {
    busy = true;
    // A synchronous throw of `run` rejects the batch like a rejected promise.
    Promise.resolve()
      .then(() => run(items))
      .then(
        () => settles.forEach((settle) => settle.resolve()),
        (error: unknown) => settles.forEach((settle) => settle.reject(error)),
      )
      .finally(() => {
        busy = false;
        const queued = next;
        next = null;
        if (queued) launch(queued);
      });
  };
  return (item) =>
    new Promise<void>((resolve, reject) => {
      if (!busy) return launch({ items: [item], settles: [{ resolve, reject }] });
      next ??= { items: [], settles: [] };
      next.items.push(item);
      next.settles.push({ resolve, reject });
    });
}
