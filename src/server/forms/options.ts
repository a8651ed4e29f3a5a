import type { BankConfig } from '../../domain/bank/types.js';
import { PREFECTURES } from '../../domain/prefectures.js';
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

type OptionSource = (db: Database, bank: BankConfig) => Promise<SourceOption[]>;

export const optionSources: Record<OptionSourceName, OptionSource> = {
  /** The bank's branches (GET /api/branch): code → name. */
  branches: async (db, bank) => (await branchesOf(db, bank.code)).map((branch) => ({ value: branch.code, label: branch.name })),
  /** The bank's purposes of use, in its order. */
  purposes: async (_db, bank) => bank.UTILIZATION_PURPOSE_LIST.map((purpose) => ({ value: purpose.value, label: purpose.label })),
  /** The 47 prefectures. */
  prefectures: async () => PREFECTURES.map((name) => ({ value: name, label: name })),
};
