/**
 * A worker's follow-up writes gathered into one statement (the mail queue's sent rows, the
 * hand-off's delivered marks): a row added waits gatherMs, with every row added meanwhile, and
 * they are written together; a row added while a write runs goes in the next. Under load that
 * is one statement for dozens of rows instead of one per row. `hurried` writes at once, for the
 * callers that must see everything written (a flush, a stop).
 */
export class GatheredWrites<Row> {
  private readonly waiting: Row[] = [];
  /** The writes under way, one statement after another; null when none. */
  private writing: Promise<void> | null = null;
  /** Ends the gathering now; null when not gathering. */
  private endGathering: (() => void) | null = null;
  /** Callers inside hurried(): no gathering meanwhile. */
  private hurrying = 0;

  constructor(
    private readonly gatherMs: number,
    /** Writes rows in one statement; a failure goes to onError, and those rows are not written again. */
    private readonly write: (rows: Row[]) => Promise<void>,
    private readonly onError: (error: unknown, rows: Row[]) => void,
  ) {}

  add(row: Row): void {
    this.waiting.push(row);
    this.writing ??= this.writeAll();
  }

  /** The writes under way, if any (settles once every row added so far is written). */
  get pending(): Promise<void> | null {
    return this.writing;
  }

  /** Runs `wait` with no gathering meanwhile: each row added is written at once. */
  async hurried<T>(wait: () => Promise<T>): Promise<T> {
    this.hurrying += 1;
    this.endGathering?.();
    try {
      return await wait();
    } finally {
      this.hurrying -= 1;
    }
  }

  /**
   * Waits, with no gathering meanwhile, until the worker's `work` under way (whose ends may add
   * rows) has ended and every row is written: a flush's or a stop's wait.
   */
  async settle(work: () => Iterable<Promise<unknown>>): Promise<void> {
    await this.hurried(async () => {
      for (let busy = [...work()]; busy.length > 0 || this.writing; busy = [...work()]) await Promise.allSettled([...busy, this.writing]);
    });
  }

  private async writeAll(): Promise<void> {
    try {
      while (this.waiting.length > 0) {
        await this.gathering();
        const rows = this.waiting.splice(0);
        await this.write(rows).catch((error: unknown) => this.onError(error, rows));
      }
    } finally {
      this.writing = null;
    }
  }

  private gathering(): Promise<void> {
    if (this.gatherMs <= 0 || this.hurrying > 0) return Promise.resolve();
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        this.endGathering = null;
        resolve();
      };
      const timer = setTimeout(end, this.gatherMs);
      // A process that ends meanwhile sends these rows' work again once their lock runs out.
      timer.unref();
      this.endGathering = end;
    });
  }
}
