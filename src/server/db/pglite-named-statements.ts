import { types, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';
import { serialize } from 'pg-protocol';

/** What PostgreSQL said of a statement when it was parsed: its parameters' and columns' types. */
interface NamedStatement {
  name: string;
  parameterTypes: number[];
  fields: { name: string; dataTypeID: number }[];
}

/**
 * Enough for every statement text the server sends (a few dozen prepared ones, and the query
 * builder's, whose text is the same for the same shape); texts beyond it take PGlite's own path.
 */
const MAX_NAMED_STATEMENTS = 500;

/**
 * PostgreSQL's answers that a named statement is no longer what was parsed: its columns changed
 * since (a migration; 0A000 is also "not supported" in general, hence the message), or it is
 * gone (a DEALLOCATE or DISCARD ALL).
 */
function statementOutdated(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return (code === '0A000' && message === 'cached plan must not change result type') || code === '26000';
}

interface BackendMessage {
  name: string;
}
const isMessage = <T extends BackendMessage>(message: BackendMessage, name: string): message is T => message.name === name;

/**
 * Each statement text PGlite is asked to run is parsed once, as a named statement, and then only
 * bound and executed: one call into PGlite's WebAssembly per query instead of six (PGlite's
 * query() sends Parse, Describe, Bind, Describe, Execute and Sync one by one), and PostgreSQL
 * parses it once and, after five runs, may keep a generic plan, where every query was parsed
 * and planned anew (planning also asks the file system for each table's size). Values are sent
 * and read with the client's own serializers and parsers, as PGlite's query() does, so the
 * results are the same. On PostgreSQL node-postgres does the like for the statements built with
 * a name (db/prepared.ts).
 */
export class NamedStatements {
  readonly #client: PGlite;
  readonly #byText = new Map<string, NamedStatement>();
  #parsed = 0;
  /** Statements dropped from #byText, closed on the server with the next Parse. */
  #outdated: string[] = [];

  constructor(client: PGlite) {
    this.#client = client;
  }

  /** Whether `text` is or can be a named statement (else it takes PGlite's own path). */
  accepts(text: string): boolean {
    return this.#byText.has(text) || this.#byText.size < MAX_NAMED_STATEMENTS;
  }

  /** PGlite's query(), as a named statement; `inTransaction`: called from within client.transaction. */
  query<T>(text: string, params: unknown[] | undefined, options: QueryOptions | undefined, inTransaction: boolean): Promise<Results<T>> {
    const client = this.#client;
    const run = () => client._runExclusiveQuery(() => this.#run<T>(text, params ?? [], options, inTransaction));
    // As PGlite's own: refused once the client is closing, and a query outside a transaction
    // waits for any transaction to end.
    return client._checkReady().then(() => (inTransaction ? run() : client._runExclusiveTransaction(run)));
  }

  async #run<T>(text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results<T>> {
    try {
      return await this.#runOnce<T>(text, params, options, inTransaction);
    } catch (error) {
      if (!statementOutdated(error)) throw error;
      const outdated = this.#byText.get(text);
      this.#byText.delete(text);
      if (outdated) this.#outdated.push(outdated.name);
      // Nothing ran (the Bind failed): outside a transaction it is parsed again and run once
      // more; inside one the error has ended the transaction, and the caller learns it.
      if (inTransaction) throw error;
      return this.#runOnce<T>(text, params, options, inTransaction);
    }
  }

  async #runOnce<T>(text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results<T>> {
    const statement = this.#byText.get(text) ?? (await this.#parse(text, inTransaction));
    const serializers = this.#client.serializers;
    const values = params.map((value, index) => {
      if (value === null || value === undefined) return null;
      const serializer = serializers[statement.parameterTypes[index] ?? 0];
      return serializer ? serializer(value) : String(value);
    });
    const messages: BackendMessage[] = await this.#client.execProtocolStream(
      Buffer.concat([serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()]),
      { syncToFs: !inTransaction },
    );
    return this.#results<T>(statement, messages, options);
  }

  async #parse(text: string, inTransaction: boolean): Promise<NamedStatement> {
    const name = `pglite_${++this.#parsed}`;
    const closing = this.#outdated.splice(0).map((outdated) => serialize.close({ type: 'S', name: outdated }));
    const messages: BackendMessage[] = await this.#client.execProtocolStream(
      Buffer.concat([...closing, serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      { syncToFs: !inTransaction },
    );
    let parameterTypes: number[] = [];
    let fields: NamedStatement['fields'] = [];
    for (const message of messages) {
      if (isMessage<BackendMessage & { dataTypeIDs: number[] }>(message, 'parameterDescription')) parameterTypes = message.dataTypeIDs;
      if (isMessage<BackendMessage & { fields: NamedStatement['fields'] }>(message, 'rowDescription')) {
        fields = message.fields.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID }));
      }
    }
    const statement = { name, parameterTypes, fields };
    this.#byText.set(text, statement);
    return statement;
  }

  #results<T>(statement: NamedStatement, messages: BackendMessage[], options: QueryOptions | undefined): Results<T> {
    const parsers = options?.parsers ? { ...this.#client.parsers, ...options.parsers } : this.#client.parsers;
    const { fields } = statement;
    const asArrays = options?.rowMode === 'array';
    const rows: unknown[] = [];
    let affectedRows = 0;
    let command: string | undefined;
    let rowCount: number | undefined;
    for (const message of messages) {
      if (isMessage<BackendMessage & { fields: (string | null)[] }>(message, 'dataRow')) {
        const values = message.fields.map((value, index) => types.parseType(value, fields[index]?.dataTypeID ?? 0, parsers) as unknown);
        rows.push(asArrays ? values : Object.fromEntries(values.map((value, index) => [fields[index]?.name ?? String(index), value])));
      } else if (isMessage<BackendMessage & { text: string }>(message, 'commandComplete')) {
        // As PGlite reads the command tag ("UPDATE 2", "INSERT 0 1", "SELECT 3", "BEGIN").
        const words = message.text.split(' ');
        const count = Number.parseInt(words.at(-1) ?? '', 10);
        command = words[0];
        rowCount = Number.isNaN(count) ? undefined : count;
        if (['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(command ?? '')) affectedRows += count;
      }
    }
    return { rows: rows as T[], affectedRows, fields, ...(command === undefined ? {} : { command }), ...(rowCount === undefined ? {} : { rowCount }) };
  }
}
