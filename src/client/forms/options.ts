import type { PublicBankConfig } from '../../domain/bank/types';
import type { Branch, Occupation } from '../../domain/masterdata';
import { PREFECTURES } from '../../domain/prefectures';
import { occupationAudience, occupationOptions } from '../../domain/rules/occupations';
import type { OptionAsker, OptionSourceName } from '../../domain/forms/format';
import { api } from '../api/client';
import type { Choice } from './widgets/choices';

/** The choices a source offers to one asker (its data already loaded). */
export type Offer = (asker: OptionAsker) => Choice[];

/**
 * The bank data a schema's `x-options` can name (src/domain/forms/format.ts), loaded by
 * the page: one loader per source name, so a new name in optionSourceNames does not compile
 * until the page can fill it. Each loads its data once and answers what it offers to an
 * asker, so the choices can follow an answer typed on the same page (the child's birthday)
 * without another request. The server checks the answer against the same data.
 */
export const optionSources: Record<OptionSourceName, (bank: PublicBankConfig) => Promise<Offer>> = {
  /** GET /api/branch: each branch by its code, with its address under its name. */
  branches: async () => {
    const { branchList } = await api<{ branchList: Branch[] }>('/branch');
    const choices = branchList.map((branch) => ({ value: branch.code, label: branch.name, description: branch.address }));
    return () => choices;
  },
  /** The bank's purposes of use (banks/<code>/bank.json), in its order. */
  purposes: async (bank) => {
    const choices = bank.UTILIZATION_PURPOSE_LIST.map((purpose) => ({ value: purpose.value, label: purpose.label }));
    return () => choices;
  },
  /** The 47 prefectures, north to south. */
  prefectures: async () => {
    const choices = PREFECTURES.map((name) => ({ value: name, label: name }));
    return () => choices;
  },
  /** GET /api/occupations: those offered to this applicant (a child's by the birthday given), その他 last. */
  occupations: async () => {
    const { occupationList } = await api<{ occupationList: Occupation[] }>('/occupations');
    return ({ applicationType, saved, today }) => {
      const birthday = typeof saved.birthday === 'string' ? saved.birthday : null;
      return occupationOptions(occupationList, occupationAudience(applicationType, birthday, today));
    };
  },
  /** GET /api/occupations: those offered to an adult whoever applies (the child flow's parent), その他 last. */
  adultOccupations: async () => {
    const { occupationList } = await api<{ occupationList: Occupation[] }>('/occupations');
    const choices = occupationOptions(occupationList, { kind: 'adult' });
    return () => choices;
  },
};

/**
 * How the summary shows a choice of each source, from its stored label and its value (the
 * confirmation page); any other source reads "label（value）".
 */
export const optionSummaries: Partial<Record<OptionSourceName, (label: string, value: string) => string>> = {
  branches: (name, code) => `${name}（店番 ${code}）`,
};
