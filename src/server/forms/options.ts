import type { BankConfig } from '../../domain/bank/types.js';
import { PREFECTURES } from '../../domain/prefectures.js';
import type { OfferedOption } from '../../domain/rules/registry.js';
import { occupationAudience, occupationOptions } from '../../domain/rules/occupations.js';
import type { OptionAsker, OptionSourceName } from '../../domain/forms/format.js';
import type { MasterDataReader } from '../masterdata/cached.js';

/**
 * The bank data a form's choice is filled from (x-options.source), as the server checks it:
 * a chosen value must be one the bank offers today, and its label is what labelAs stores.
 * The page reads the same data through the API (src/client/forms/options.ts).
 */
type OptionSource = (data: MasterDataReader, bank: BankConfig, asker: OptionAsker) => Promise<OfferedOption[]>;

export const optionSources: Record<OptionSourceName, OptionSource> = {
  /** The bank's branches (GET /api/branch): code → name. */
  branches: async (data, bank) => (await data.branchesOf(bank.code)).map((branch) => ({ value: branch.code, label: branch.name })),
  /** The bank's purposes of use, in its order. */
  purposes: async (_data, bank) => bank.UTILIZATION_PURPOSE_LIST.map((purpose) => ({ value: purpose.value, label: purpose.label })),
  /** The 47 prefectures. */
  prefectures: async () => PREFECTURES.map((name) => ({ value: name, label: name })),
  /** The bank's occupations offered to this applicant (a child's by the stored birthday), その他 last. */
  occupations: async (data, bank, { applicationType, saved, today }) => {
    const birthday = typeof saved.birthday === 'string' ? saved.birthday : null;
    return occupationOptions(await data.occupationsOf(bank.code), occupationAudience(applicationType, birthday, today));
  },
  /** The bank's occupations offered to an adult whoever applies (the child flow's parent), その他 last. */
  adultOccupations: async (data, bank) => occupationOptions(await data.occupationsOf(bank.code), { kind: 'adult' }),
};
