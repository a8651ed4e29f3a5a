import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { BankConfig } from '../../domain/bank/types.js';
import { startSchemas, startValidator } from '../start-validators.js';

export type BankImageKind = 'logo' | 'top' | 'card';

export interface BankRegistry {
  all(): BankConfig[];
  get(code: string): BankConfig | undefined;
  /**
   * The bank a request host belongs to. Undefined means "no bank": the caller must answer
   * with an error page rather than fall back to some other bank's branding and links.
   * `exactOnly` (production): only a bank's DOMAIN or DOMAIN_ALIASES select it; no default
   * bank, no "0587.<anything>" development host.
   */
  resolveHost(host: string | undefined, defaultCode: string | null, exactOnly?: boolean): BankConfig | undefined;
  /** Absolute path of one of the bank's images on disk. */
  imagePath(bank: BankConfig, kind: BankImageKind): string;
}

const BANK_FOLDER = /^[0-9]{4}$/;
const SCHEMA_FILE = 'bank.schema.json';
const CONFIG_FILE = 'bank.json';
/** Hosts a developer machine answers on; they carry no bank of their own. */
const LOCAL_HOSTS = new Set(['localhost']);
/** An IP literal names no bank either: a developer's machine, or a phone testing over the LAN. */
const IP_LITERAL = /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\]|[0-9a-f]*:[0-9a-f:.]*)$/;
const IMAGE_KINDS: readonly BankImageKind[] = ['logo', 'top', 'card'];

/**
 * Reads and validates every banks/<code>/bank.json. All problems are collected and reported
 * together so an operator adding a bank fixes the folder in one pass instead of one error per start.
 */
export async function loadBanks(banksDir: string): Promise<BankRegistry> {
  const root = path.resolve(banksDir);
  const validate = await compileSchema(root);
  const problems: string[] = [];
  const banks = new Map<string, BankConfig>();

  let folders: string[];
  try {
    const entries = await readdir(root, { withFileTypes: true });
    folders = entries
      .filter((e) => e.isDirectory() && BANK_FOLDER.test(e.name))
      .map((e) => e.name)
      .sort();
  } catch (err) {
    throw new Error(`${display(root)}: cannot read the banks folder (${errorText(err)})`);
  }
  if (folders.length === 0) {
    throw new Error(`${display(root)}: no bank folder (4-digit bank code) found`);
  }

  for (const folder of folders) {
    const bank = await loadOne(root, folder, validate, problems);
    if (bank) banks.set(bank.code, bank);
  }

  // A shared DOMAIN (or alias) would make the host lookup ambiguous and could show one
  // bank's pages under another bank's name.
  const byDomain = new Map<string, string>();
  for (const bank of banks.values()) {
    for (const [pointer, name] of hostNamesOf(bank)) {
      const domain = name.toLowerCase();
      const other = byDomain.get(domain);
      if (other !== undefined) {
        problems.push(`${display(path.join(root, bank.code, CONFIG_FILE))}: ${pointer} "${name}" is already used by bank ${other}`);
      } else {
        byDomain.set(domain, bank.code);
      }
    }
  }

  if (problems.length > 0) {
    throw new Error(`Invalid bank configuration (${problems.length} problem(s)):\n  ${problems.join('\n  ')}`);
  }
  return createRegistry(root, banks);
}

async function compileSchema(root: string): Promise<ValidateFunction<BankConfig>> {
  const schemaPath = path.join(root, SCHEMA_FILE);
  let schema: unknown;
  try {
    schema = JSON.parse(await readFile(schemaPath, 'utf8'));
  } catch (err) {
    throw new Error(`${display(schemaPath)}: cannot read the bank schema (${errorText(err)})`);
  }
  // Compiled at build time unless the schema changed since (start-validators.ts).
  return startValidator<BankConfig>(startSchemas.bank, schema as object);
}

async function loadOne(
  root: string,
  folder: string,
  validate: ValidateFunction<BankConfig>,
  problems: string[],
): Promise<BankConfig | undefined> {
  const file = path.join(root, folder, CONFIG_FILE);
  const where = display(file);
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    problems.push(`${where}: cannot read or parse (${errorText(err)})`);
    return undefined;
  }

  if (!validate(data)) {
    for (const e of validate.errors ?? []) problems.push(`${where}: ${describeError(e)}`);
    return undefined;
  }

  // The "$schema" key is an editor hint; drop it so the object is exactly a BankConfig.
  const { $schema: _hint, ...rest } = data as BankConfig & { $schema?: string };
  const bank: BankConfig = rest;
  let ok = true;

  if (bank.code !== folder) {
    problems.push(`${where}: /code "${bank.code}" must equal the folder name "${folder}"`);
    ok = false;
  }

  const values = new Set<string>();
  bank.UTILIZATION_PURPOSE_LIST.forEach((p, i) => {
    if (values.has(p.value)) {
      problems.push(`${where}: /UTILIZATION_PURPOSE_LIST/${i}/value "${p.value}" is duplicated`);
      ok = false;
    }
    values.add(p.value);
  });

  bank.identityCheckMethods.forEach((window, i) => {
    if (window.from !== undefined && window.until !== undefined && window.until < window.from) {
      problems.push(`${where}: /identityCheckMethods/${i} ends (until ${window.until}) before it starts (from ${window.from})`);
      ok = false;
    }
  });

  for (const kind of IMAGE_KINDS) {
    const image = path.join(root, folder, bank.images[kind]);
    if (!(await isFile(image))) {
      problems.push(`${where}: /images/${kind} file not found: ${display(image)}`);
      ok = false;
    }
  }
  return ok ? bank : undefined;
}

/** The production host names of a bank with their JSON pointers: DOMAIN, then DOMAIN_ALIASES. */
function hostNamesOf(bank: BankConfig): [string, string][] {
  return [['/DOMAIN', bank.DOMAIN], ...(bank.DOMAIN_ALIASES ?? []).map((alias, i): [string, string] => [`/DOMAIN_ALIASES/${i}`, alias])];
}

function createRegistry(root: string, banks: Map<string, BankConfig>): BankRegistry {
  const list = [...banks.values()];
  const byDomain = new Map(list.flatMap((b) => hostNamesOf(b).map(([, name]): [string, BankConfig] => [name.toLowerCase(), b])));

  return {
    all: () => [...list],
    get: (code) => banks.get(code),
    resolveHost(host, defaultCode, exactOnly = false) {
      const name = hostnameOf(host);
      if (name === '') return undefined;
      const exact = byDomain.get(name);
      if (exact || exactOnly) return exact;
      if (LOCAL_HOSTS.has(name) || IP_LITERAL.test(name)) {
        return defaultCode === null ? undefined : banks.get(defaultCode);
      }
      // Development and test hosts such as 0587.localhost or 0181.127.0.0.1.nip.io.
      const first = name.split('.')[0] ?? '';
      return BANK_FOLDER.test(first) ? banks.get(first) : undefined;
    },
    imagePath: (bank, kind) => path.join(root, bank.code, bank.images[kind]),
  };
}

/** Host header value without port, lower-cased, without a trailing root dot: "0177.localhost:3000" -> "0177.localhost", "[::1]:3000" -> "[::1]". */
export function hostnameOf(host: string | undefined): string {
  let h = (host ?? '').trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end === -1 ? '' : h.slice(0, end + 1);
  }
  // Exactly one colon means host:port; more would be a bare IPv6 address, which has no port.
  const colon = h.indexOf(':');
  if (colon !== -1 && colon === h.lastIndexOf(':')) h = h.slice(0, colon);
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}

/** "<json pointer> <message>", pointing at the offending property itself where ajv gives its parent. */
function describeError(e: ErrorObject): string {
  const base = e.instancePath;
  if (e.keyword === 'required') {
    const prop = (e.params as { missingProperty: string }).missingProperty;
    return `${base}/${escapePointer(prop)} is required`;
  }
  if (e.keyword === 'additionalProperties') {
    const prop = (e.params as { additionalProperty: string }).additionalProperty;
    return `${base}/${escapePointer(prop)} is not allowed`;
  }
  if (e.keyword === 'enum') {
    return `${base || '/'} ${e.message ?? 'is invalid'}: ${JSON.stringify(e.data)}`;
  }
  return `${base || '/'} ${e.message ?? 'is invalid'}`;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Paths inside the working directory read best relative (banks/0177/bank.json). */
function display(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : file;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
