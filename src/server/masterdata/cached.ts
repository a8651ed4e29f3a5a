import { asc } from 'drizzle-orm';
import { compareOccupations } from '../../domain/rules/index.js';
import { CachedRows, type ChangeSource } from '../db/changes.js';
import type { Database } from '../db/index.js';
import { branches, occupations } from '../db/schema.js';
import type { Branch, Occupation } from './types.js';

/**
 * The banks' occupations and branches as the API lists them and the form steps check them.
 * Master data, not application state: written from banks/<code>/ by the seed, read by every
 * workplace and branch page twice (the page's list, the step's check). Each process keeps all
 * banks' rows until the database says the table changed (migration 0015, db/changes.ts), and
 * reads the database while it cannot hear that.
 */
export interface MasterDataReader {
  /** The bank's occupations in the select's order (その他 last). */
  occupationsOf(bankCode: string): Promise<Occupation[]>;
  /** The bank's branches by code. */
  branchesOf(bankCode: string): Promise<Branch[]>;
}

export function cachedMasterData(db: Database, changes: ChangeSource): MasterDataReader {
  const allOccupations = new CachedRows(changes, 'occupations', () =>
    db
      .select({
        bankCode: occupations.bankCode,
        id: occupations.id,
        name: occupations.name,
        displayNumber: occupations.displayNumber,
        generalDisplay: occupations.generalDisplay,
        childDisplay: occupations.childDisplay,
        minDisplayAge: occupations.minDisplayAge,
        maxDisplayAge: occupations.maxDisplayAge,
        workplaceRequired: occupations.workplaceRequired,
      })
      .from(occupations),
  );
  // Ordered by the database, as the list was before it was kept: filtering keeps the order.
  const allBranches = new CachedRows(changes, 'branches', () =>
    db.select({ bankCode: branches.bankCode, code: branches.code, name: branches.name, address: branches.address }).from(branches).orderBy(asc(branches.code)),
  );
  return {
    // Fresh objects each time: a caller may change what it gets without changing the copy.
    occupationsOf: async (bankCode) =>
      (await allOccupations.get())
        .filter((row) => row.bankCode === bankCode)
        .map(({ bankCode: _bank, ...occupation }) => occupation)
        .sort(compareOccupations),
    branchesOf: async (bankCode) => (await allBranches.get()).filter((row) => row.bankCode === bankCode).map(({ bankCode: _bank, ...branch }) => branch),
  };
}
