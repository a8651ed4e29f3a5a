/**
 * Tables whose rows every process may keep in memory, because the database tells each process
 * when they change (migration 0011: a trigger sends NOTIFY data_changed with the table's name).
 * A copy is dropped on that notice, and never kept while the process cannot hear notices (its
 * listening connection was lost): then every read goes to the database, as before caching.
 */

/** The channel the triggers notify on. */
export const DATA_CHANGED_CHANNEL = 'data_changed';

/** What a table's cached copy needs from the change feed. */
export interface ChangeSource {
  /** Whether notices can be heard now (a copy may be kept). */
  readonly listening: boolean;
  /** Calls `drop` when `table` changes, or when notices may have been missed. */
  onChange(table: string, drop: () => void): void;
}

/** The change notices of one database connection, handed out by table name. */
export class ChangeFeed implements ChangeSource {
  listening = false;
  private readonly listeners = new Map<string, Array<() => void>>();

  onChange(table: string, drop: () => void): void {
    this.listeners.set(table, [...(this.listeners.get(table) ?? []), drop]);
  }

  /** A notice arrived: the named table changed. */
  changed(table: string): void {
    for (const drop of this.listeners.get(table) ?? []) drop();
  }

  /** Listening started (true) or stopped (false): either way what was kept may be stale. */
  setListening(listening: boolean): void {
    this.listening = listening;
    for (const drops of this.listeners.values()) for (const drop of drops) drop();
  }
}

/**
 * The rows of one table as last read, until it changes. A read under way when the table
 * changes is answered but not kept (its rows may predate the change).
 */
export class CachedRows<T> {
  private rows: Promise<T[]> | null = null;

  constructor(
    private readonly source: ChangeSource,
    table: string,
    private readonly load: () => PromiseLike<T[]>,
  ) {
    source.onChange(table, () => {
      this.rows = null;
    });
  }

  async get(): Promise<T[]> {
    if (!this.source.listening) return this.load();
    if (this.rows) return this.rows;
    // A real promise: a drizzle query is a thenable that runs again each time it is awaited.
    const loading = Promise.resolve(this.load());
    this.rows = loading;
    try {
      return await loading;
    } catch (error) {
      // A failed read is not kept either.
      if (this.rows === loading) this.rows = null;
      throw error;
    }
  }
}
