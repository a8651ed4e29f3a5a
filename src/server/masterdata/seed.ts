import { eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/index.js';
import { branches, invitationCodes, masterDataSeeds, occupations, workplaces } from '../db/schema.js';
import { fingerprintOf } from './fingerprint.js';
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

export interface SeedOptions {
  /** Bank code -> fingerprintOf() of the files the data was read from; stored with the rows. */
  fingerprints?: ReadonlyMap<string, string>;
  /** false: skip a bank whose stored fingerprint equals the given one (checked under the lock). */
  force?: boolean;
}

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** Whether another process seeded these very files while this one waited for the lock. */
async function alreadySeeded(tx: Transaction, bankCode: string, fingerprint: string | undefined): Promise<boolean> {
  if (fingerprint === undefined) return false;
  const [stored] = await tx.select({ fingerprint: masterDataSeeds.fingerprint }).from(masterDataSeeds).where(eq(masterDataSeeds.bankCode, bankCode));
  return stored?.fingerprint === fingerprint;
}

/**
 * Makes the master-data tables equal to the files: for each bank, in one transaction, its rows
 * are deleted and the file's inserted. Replacing rather than upserting row by row lets a file
 * drop an entry or swap two workplace codes (unique per bank) without a conflict half-way;
 * readers never see the table half-filled (the transaction commits at once), and running it
 * twice leaves the same rows. The advisory lock serialises two servers starting at once on one
 * PostgreSQL database (each would otherwise delete rows the other has not committed yet and then
 * collide on inserting them). The fingerprint is written in the same transaction, so it names
 * exactly the committed rows; data given without one (not from the files) clears it, and the
 * next start seeds that bank again. Returns the banks written.
 */
export async function seedMasterData(db: Database, banks: readonly BankMasterData[], options: SeedOptions = {}): Promise<SeedSummary[]> {
  const { fingerprints = new Map<string, string>(), force = true } = options;
  const summary: SeedSummary[] = [];
  for (const bank of banks) {
    const { bankCode } = bank;
    const fingerprint = fingerprints.get(bankCode);
    const written = await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${SEED_LOCK})`);
      if (!force && (await alreadySeeded(tx, bankCode, fingerprint))) return false;
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
      if (fingerprint === undefined) {
        await tx.delete(masterDataSeeds).where(eq(masterDataSeeds.bankCode, bankCode));
      } else {
        await tx
          .insert(masterDataSeeds)
          .values({ bankCode, fingerprint })
          .onConflictDoUpdate({ target: masterDataSeeds.bankCode, set: { fingerprint, seededAt: sql`now()` } });
      }
      return true;
    });
    if (!written) continue;
    summary.push({
      bankCode,
      occupations: bank.occupations.length,
      branches: bank.branches.length,
      workplaces: bank.workplaces.length,
      invitations: bank.invitations.length,
    });
  }
  return summary;
}

/** The fingerprints of the given banks' files now. */
export async function fingerprintsOf(banksDir: string, bankCodes: readonly string[]): Promise<Map<string, string>> {
  return new Map(await Promise.all(bankCodes.map(async (code): Promise<[string, string]> => [code, await fingerprintOf(banksDir, code)])));
}

export interface FolderSeed {
  seeded: SeedSummary[];
  /** Banks skipped: their files hash as at their last seed. */
  unchanged: string[];
}

/**
 * Reads banks/<code>/*.json of the given banks and seeds them (server start: only the banks
 * whose files changed since their last seed; force: all). The files are hashed before they are
 * read: should one change in between, the stored hash is the older one and the next start
 * seeds again, never the other way round. An unchanged bank's files are not even read or
 * checked: the same bytes passed the same checks (SEED_FORMAT) when they were seeded.
 */
export async function seedFromFolder(db: Database, banksDir: string, bankCodes: readonly string[], force = false): Promise<FolderSeed> {
  const fingerprints = await fingerprintsOf(banksDir, bankCodes);
  const stored = force
    ? new Map<string, string>()
    : new Map(
        (await db.select().from(masterDataSeeds).where(inArray(masterDataSeeds.bankCode, [...bankCodes]))).map((row) => [row.bankCode, row.fingerprint]),
      );
  const changed = bankCodes.filter((code) => stored.get(code) !== fingerprints.get(code));
  const seeded = changed.length > 0 ? await seedMasterData(db, loadMasterData(banksDir, changed), { fingerprints, force }) : [];
  const written = new Set(seeded.map((bank) => bank.bankCode));
  return { seeded, unchanged: bankCodes.filter((code) => !written.has(code)) };
}
