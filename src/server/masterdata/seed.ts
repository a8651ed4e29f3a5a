import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/index.js';
import { branches, invitationCodes, occupations, workplaces } from '../db/schema.js';
import { loadMasterData } from './load.js';
import type { BankMasterData } from './types.js';

/** Any constant: servers starting together on one PostgreSQL take turns seeding. */
const SEED_LOCK = 71_770_181;

export interface SeedSummary {
  bankCode: string;
  occupations: number;
  branches: number;
  workplaces: number;
  invitations: number;
}

/**
 * Makes the master-data tables equal to the files: for each bank, in one transaction, its rows
 * are deleted and the file's inserted. Replacing rather than upserting row by row lets a file
 * drop an entry or swap two workplace codes (unique per bank) without a conflict half-way;
 * readers never see the table half-filled (the transaction commits at once), and running it
 * twice leaves the same rows, so every start runs it. The advisory lock serialises two servers
 * starting at once on one PostgreSQL database (each would otherwise delete rows the other has
 * not committed yet and then collide on inserting them).
 */
export async function seedMasterData(db: Database, banks: readonly BankMasterData[]): Promise<SeedSummary[]> {
  const summary: SeedSummary[] = [];
  for (const bank of banks) {
    await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${SEED_LOCK})`);
      const { bankCode } = bank;
      await tx.delete(occupations).where(eq(occupations.bankCode, bankCode));
      await tx.delete(branches).where(eq(branches.bankCode, bankCode));
      await tx.delete(workplaces).where(eq(workplaces.bankCode, bankCode));
      await tx.delete(invitationCodes).where(eq(invitationCodes.bankCode, bankCode));
      if (bank.occupations.length > 0) await tx.insert(occupations).values(bank.occupations.map((row) => ({ ...row, bankCode })));
      if (bank.branches.length > 0) await tx.insert(branches).values(bank.branches.map((row) => ({ ...row, bankCode })));
      if (bank.workplaces.length > 0) await tx.insert(workplaces).values(bank.workplaces.map((row) => ({ ...row, bankCode })));
      if (bank.invitations.length > 0) {
        await tx.insert(invitationCodes).values(bank.invitations.map((row) => ({ ...row, bankCode })));
      }
    });
    summary.push({
      bankCode: bank.bankCode,
      occupations: bank.occupations.length,
      branches: bank.branches.length,
      workplaces: bank.workplaces.length,
      invitations: bank.invitations.length,
    });
  }
  return summary;
}

/** Reads banks/<code>/*.json of the given banks and seeds them (server start, npm run seed). */
export async function seedFromFolder(db: Database, banksDir: string, bankCodes: readonly string[]): Promise<SeedSummary[]> {
  return seedMasterData(db, loadMasterData(banksDir, bankCodes));
}
