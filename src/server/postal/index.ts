import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { candidatesOf, parseJpostalFile, type AddressCandidate, type JpostalRow } from './jpostal.js';

export type { AddressCandidate } from './jpostal.js';

export const POSTAL_NUMBER = /^[0-9]{7}$/;

/** node_modules/jquery-jpostal-ja/json, wherever npm put the package. */
export function defaultJpostalDir(): string {
  // The package has no "exports" map, so its package.json is resolvable; its folder holds json/.
  const packageJson = createRequire(import.meta.url).resolve('jquery-jpostal-ja/package.json');
  return path.join(path.dirname(packageJson), 'json');
}

/** The version of jquery-jpostal-ja in use (logged at start: it dates the postal data). */
export function jpostalVersion(): string {
  const packageJson = createRequire(import.meta.url)('jquery-jpostal-ja/package.json') as { version?: unknown };
  return typeof packageJson.version === 'string' ? packageJson.version : 'unknown';
}

export interface PostalLookupOptions {
  /** Folder with the <NNN>.json files; default: the installed jquery-jpostal-ja package. */
  dir?: string;
  /** How many 3-digit files stay parsed in memory (least recently used dropped first). */
  maxFiles?: number;
}

type FileIndex = Map<string, AddressCandidate[]>;

/**
 * Postal code -> address candidates. Each 3-digit file is read and parsed once, on the first
 * code that needs it, and kept in a small LRU: the banks' applicants live in a few dozen
 * prefixes (80x-89x), so nearly every lookup is a Map hit, while a run over all 1,000 files
 * cannot grow the process beyond `maxFiles` of them. Concurrent first lookups of one file share
 * the read. Candidate objects are frozen: one is handed to every request that asks.
 */
export class PostalLookup {
  readonly dir: string;
  private readonly maxFiles: number;
  private readonly files = new Map<string, Promise<FileIndex>>();

  constructor(options: PostalLookupOptions = {}) {
    this.dir = options.dir ?? defaultJpostalDir();
    this.maxFiles = options.maxFiles ?? 128;
  }

  /** Every candidate of a 7-digit code (none for an unused one); throws on another input. */
  async find(postalNumber: string): Promise<readonly AddressCandidate[]> {
    if (!POSTAL_NUMBER.test(postalNumber)) throw new Error(`not a 7-digit postal code: ${postalNumber}`);
    const index = await this.file(postalNumber.slice(0, 3));
    return index.get(postalNumber) ?? [];
  }

  /** The candidate of a code with this addressCode, if the code (still) has it. */
  async candidate(postalNumber: string, addressCode: string): Promise<AddressCandidate | undefined> {
    if (!POSTAL_NUMBER.test(postalNumber)) return undefined;
    return (await this.find(postalNumber)).find((candidate) => candidate.addressCode === addressCode);
  }

  /** Files parsed now (tests and the bench look at the cache). */
  get cachedFiles(): number {
    return this.files.size;
  }

  private file(prefix: string): Promise<FileIndex> {
    const cached = this.files.get(prefix);
    if (cached) {
      // Re-inserting moves the entry to the end: Map order is the recency order.
      this.files.delete(prefix);
      this.files.set(prefix, cached);
      return cached;
    }
    const loading = this.load(prefix);
    this.files.set(prefix, loading);
    // A failed read is not remembered: the next request tries again.
    loading.catch(() => {
      if (this.files.get(prefix) === loading) this.files.delete(prefix);
    });
    while (this.files.size > this.maxFiles) {
      const oldest = this.files.keys().next().value;
      if (oldest === undefined) break;
      this.files.delete(oldest);
    }
    return loading;
  }

  private async load(prefix: string): Promise<FileIndex> {
    const file = path.join(this.dir, `${prefix}.json`);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      // No file: Japan Post uses no code with these first 3 digits.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
      throw error;
    }
    const byCode = new Map<string, JpostalRow[]>();
    for (const row of parseJpostalFile(text, file)) {
      const code = row[0].replace(/^_/, '');
      // Only full 7-digit rows are addresses (the `_860` row is the file's summary).
      if (!POSTAL_NUMBER.test(code)) continue;
      const rows = byCode.get(code);
      if (rows) rows.push(row);
      else byCode.set(code, [row]);
    }
    const index: FileIndex = new Map();
    for (const [code, rows] of byCode) {
      index.set(
        code,
        candidatesOf(code, rows).map((candidate) => Object.freeze(candidate)),
      );
    }
    return index;
  }
}
