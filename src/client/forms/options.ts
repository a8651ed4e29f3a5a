import type { Branch } from '../../domain/masterdata';
import type { OptionSourceName } from '../../domain/schemas/form-step';
import { api } from '../api/client';
import type { Choice } from './widgets/choices';

/**
 * The bank data a schema's `x-options` can name (src/domain/schemas/form-step.ts), loaded by
 * the page: one loader per source name, so a new name in optionSourceNames does not compile
 * until the page can fill it. The server checks the answer against the same data.
 */
export const optionSources: Record<OptionSourceName, () => Promise<Choice[]>> = {
  /** GET /api/branch: each branch by its code, with its address under its name. */
  branches: async () => {
    const { branchList } = await api<{ branchList: Branch[] }>('/branch');
    return branchList.map((branch) => ({ value: branch.code, label: branch.name, description: branch.address }));
  },
};

/**
 * How the summary shows a choice of each source, from its stored label and its value (the
 * confirmation page); any other source reads "label（value）".
 */
export const optionSummaries: Partial<Record<OptionSourceName, (label: string, value: string) => string>> = {
  branches: (name, code) => `${name}（店番 ${code}）`,
};
