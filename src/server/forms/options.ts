import type { OptionSourceName } from '../../domain/schemas/form-step.js';
import type { Database } from '../db/index.js';
import { branchesOf } from '../routes/master-data.js';

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
  branches: async (db, bankCode) => (await branchesOf(db, bankCode)).map((branch) => ({ value: branch.code, label: branch.name })),
};
