/**
 * Reads banks/<code>/{occupations,branches,workplaces,invitations}.json and checks each file
 * against its definition in banks/master-data.schema.json, plus what a schema cannot say
 * (unique ids and codes, one その他). Any mistake stops the start with the file and the JSON
 * pointer, like a broken bank.json does: a bank must never open with half its lists.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { OTHER_OCCUPATION_NAME } from '../../domain/rules/index.js';
import { startValidators, type StartSchema } from '../start-validators.js';
import type { BankMasterData, Branch, Invitation, Occupation, Workplace } from './types.js';

export const SCHEMA_FILE = 'master-data.schema.json';

/** File name -> the list it holds (the file is `{ "<list>": [...] }`). */
export const MASTER_DATA_FILES = {
  'occupations.json': 'occupations',
  'branches.json': 'branches',
  'workplaces.json': 'workplaces',
  'invitations.json': 'invitations',
} as const;

type ListName = (typeof MASTER_DATA_FILES)[keyof typeof MASTER_DATA_FILES];

/** The master data's ajv, compiled at build time unless the schema changed since (start-validators.ts). */
export const masterDataStartSchema: StartSchema = { name: 'master-data', options: { allErrors: true, strict: false }, formats: true };

const DEFINITIONS: Record<ListName, string> = {
  occupations: 'occupationsFile',
  branches: 'branchesFile',
  workplaces: 'workplacesFile',
  invitations: 'invitationsFile',
};

const refOf = (list: ListName) => `${SCHEMA_FILE}#/definitions/${DEFINITIONS[list]}`;

/** The schema by its id and the refs of the lists' definitions, as the build and the start compile them. */
export function masterDataSchemas(banksDir: string): { byId: Record<string, object>; refs: string[] } {
  const schema = JSON.parse(readFileSync(join(banksDir, SCHEMA_FILE), 'utf8')) as object;
  return { byId: { [SCHEMA_FILE]: schema }, refs: (Object.keys(DEFINITIONS) as ListName[]).map(refOf) };
}

function validators(banksDir: string): Record<ListName, ValidateFunction> {
  const { byId, refs } = masterDataSchemas(banksDir);
  const found = startValidators(masterDataStartSchema, byId, refs);
  const of = (list: ListName) => {
    const validate = found[refOf(list)];
    if (!validate) throw new Error(`${SCHEMA_FILE} lacks definitions/${DEFINITIONS[list]}`);
    return validate;
  };
  return { occupations: of('occupations'), branches: of('branches'), workplaces: of('workplaces'), invitations: of('invitations') };
}

function duplicates<T>(items: T[], key: (item: T) => string | number): string[] {
  const seen = new Set<string | number>();
  const repeated = new Set<string | number>();
  for (const item of items) {
    const value = key(item);
    if (seen.has(value)) repeated.add(value);
    seen.add(value);
  }
  return [...repeated].map(String);
}

/** The master data of the given banks, read now from disk (the server reads it once at start). */
export function loadMasterData(banksDir: string, bankCodes: readonly string[]): BankMasterData[] {
  const validate = validators(banksDir);
  const problems: string[] = [];
  const shown = (file: string) => relative(process.cwd(), file) || file;
  const result: BankMasterData[] = [];

  for (const bankCode of bankCodes) {
    const lists: Partial<Record<ListName, unknown[]>> = {};
    for (const [fileName, list] of Object.entries(MASTER_DATA_FILES) as [keyof typeof MASTER_DATA_FILES, ListName][]) {
      const file = join(banksDir, bankCode, fileName);
      if (!existsSync(file)) {
        problems.push(`${shown(file)}: missing (every bank folder needs ${Object.keys(MASTER_DATA_FILES).join(', ')})`);
        continue;
      }
      let data: unknown;
      try {
        data = JSON.parse(readFileSync(file, 'utf8'));
      } catch (error) {
        problems.push(`${shown(file)}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
        continue;
      }
      if (!validate[list](data)) {
        for (const error of validate[list].errors ?? []) {
          problems.push(`${shown(file)}: ${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
        }
        continue;
      }
      lists[list] = (data as Record<ListName, unknown[]>)[list];
    }
    const occupations = (lists.occupations ?? []) as Occupation[];
    const branches = (lists.branches ?? []) as Branch[];
    const workplaces = (lists.workplaces ?? []) as Workplace[];
    const invitations = (lists.invitations ?? []) as Invitation[];
    const where = (fileName: string) => shown(join(banksDir, bankCode, fileName));

    for (const id of duplicates(occupations, (item) => item.id)) problems.push(`${where('occupations.json')}: id ${id} is used twice`);
    const others = occupations.filter((item) => item.name === OTHER_OCCUPATION_NAME).length;
    if (lists.occupations && others !== 1) problems.push(`${where('occupations.json')}: needs exactly one "${OTHER_OCCUPATION_NAME}", has ${others}`);
    for (const occupation of occupations) {
      if (occupation.minDisplayAge !== null && occupation.maxDisplayAge !== null && occupation.minDisplayAge > occupation.maxDisplayAge) {
        problems.push(`${where('occupations.json')}: id ${occupation.id} has minDisplayAge above maxDisplayAge`);
      }
    }
    for (const code of duplicates(branches, (item) => item.code)) problems.push(`${where('branches.json')}: code ${code} is used twice`);
    for (const id of duplicates(workplaces, (item) => item.id)) problems.push(`${where('workplaces.json')}: id ${id} is used twice`);
    for (const code of duplicates(workplaces, (item) => item.code)) problems.push(`${where('workplaces.json')}: code ${code} is used twice`);
    for (const code of duplicates(invitations, (item) => item.code)) problems.push(`${where('invitations.json')}: code ${code} is used twice`);

    result.push({ bankCode, occupations, branches, workplaces, invitations });
  }
  if (problems.length > 0) throw new Error(`the bank master data is invalid:\n${problems.join('\n')}`);
  return result;
}
