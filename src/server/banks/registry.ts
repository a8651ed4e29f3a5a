/**
 * The banks of the group, read from banks/<code>/ at start. Every folder is checked against
 * banks/bank.schema.json and its images must exist, so a fourth bank is one new folder and a
 * mistake in it stops the start with the file and JSON pointer, never a half-configured bank.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { BankConfig } from '../../domain/bank/types.js';

export type BankImageKind = keyof BankConfig['images'];

export interface BankRegistry {
  all(): BankConfig[];
  get(code: string): BankConfig | undefined;
  /** The bank a Host header names; undefined for a host of no bank (the caller answers with an error page). */
  resolveHost(host: string | undefined, defaultCode: string | null): BankConfig | undefined;
  imagePath(bank: BankConfig, kind: BankImageKind): string;
}

const LOCAL_HOSTS = new Set(['localhost']);
/** An IP literal names no bank: it is a developer's machine or a phone testing over the LAN. */
const IP_LITERAL = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/;
const BANK_FOLDER = /^[0-9]{4}$/;

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

/** Host without the port: "0177.localhost:3000" -> "0177.localhost", "[::1]:3000" -> "[::1]". */
export function hostnameOf(host: string): string {
  const trimmed = host.trim().toLowerCase();
  if (trimmed.startsWith('[')) return trimmed.slice(0, trimmed.indexOf(']') + 1);
  return trimmed.replace(/:\d+$/, '');
}

export async function loadBanks(banksDir: string): Promise<BankRegistry> {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const schema = JSON.parse(readFileSync(join(banksDir, 'bank.schema.json'), 'utf8')) as object;
  const validate = ajv.compile<BankConfig>(schema);
  const problems: string[] = [];
  const banks: BankConfig[] = [];
  const shown = (file: string) => relative(process.cwd(), file) || file;

  const folders = readdirSync(banksDir)
    .filter((name) => BANK_FOLDER.test(name) && statSync(join(banksDir, name)).isDirectory())
    .sort();
  for (const folder of folders) {
    const file = join(banksDir, folder, 'bank.json');
    if (!existsSync(file)) {
      problems.push(`${shown(file)}: missing`);
      continue;
    }
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      problems.push(`${shown(file)}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
      continue;
    }
    if (!validate(data)) {
      for (const error of validate.errors ?? []) problems.push(`${shown(file)}: ${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
      continue;
    }
    const { $schema: _editorHint, ...bank } = data as BankConfig & { $schema?: string };
    if (bank.code !== folder) problems.push(`${shown(file)}: /code is "${bank.code}" but the folder is ${folder}`);
    for (const [kind, name] of Object.entries(bank.images)) {
      if (!existsSync(join(banksDir, folder, name))) problems.push(`${shown(file)}: /images/${kind} names ${name}, which is not in the folder`);
    }
    banks.push(bank);
  }
  const domains = new Map<string, string>();
  for (const bank of banks) {
    const domain = bank.DOMAIN.toLowerCase();
    const other = domains.get(domain);
    if (other) problems.push(`banks/${bank.code}/bank.json: /DOMAIN ${bank.DOMAIN} is also the domain of bank ${other}`);
    domains.set(domain, bank.code);
  }
  if (folders.length === 0) problems.push(`${shown(banksDir)}: no bank folder (a folder named by the 4-digit bank code)`);
  if (problems.length > 0) throw new Error(`the bank folders are invalid:\n${problems.join('\n')}`);

  const byCode = new Map(banks.map((bank) => [bank.code, bank]));
  return {
    all: () => [...banks],
    get: (code) => byCode.get(code),
    resolveHost(host, defaultCode) {
      if (!host) return defaultCode ? byCode.get(defaultCode) : undefined;
      const hostname = hostnameOf(host);
      const byLabel = byCode.get(hostname.split('.')[0] ?? '');
      if (byLabel) return byLabel;
      const byDomain = banks.find((bank) => bank.DOMAIN.toLowerCase() === hostname);
      if (byDomain) return byDomain;
      if ((LOCAL_HOSTS.has(hostname) || IP_LITERAL.test(hostname)) && defaultCode) return byCode.get(defaultCode);
      return undefined;
    },
    imagePath: (bank, kind) => join(banksDir, bank.code, bank.images[kind]),
  };
}
