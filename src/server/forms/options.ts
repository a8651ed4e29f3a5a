import { asc, eq } from 'drizzle-orm';
import type { OptionSourceName } from '../../domain/schemas/form-step.js';
import type { Database } from '../db/index.js';
import { branches } from '../db/schema.js';

/**
 * The bank data a form's choice is filled from (x-options.source), as the server checks it:
 * a chosen value must be one the bank offers today, and its label is what labelAs stores.
 * The page reads the same data through the API (src/client/forms/options.ts).
 */
export interface SourceOption {
  value: string;
  label: string;
}

type OptionSource = (db: Database, bankCode: string) => Promise<SourceOption[]>;

export const optionSources: Record<OptionSourceName, OptionSource> = {
  /** The bank's branches (GET /api/branch): code → name. */
  branches: async (db, bankCode) =>
    db
      .select({ value: branches.code, label: branches.name })
      .from(branches)
      .where(eq(branches.bankCode, bankCode))
      .orderBy(asc(branches.code)),
};
