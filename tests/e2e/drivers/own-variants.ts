import { readFileSync } from 'node:fs';
import type { BankConfig } from '../../../src/domain/bank/types';
import { formFor } from '../../../src/domain/forms/flow-forms';
import { fieldStatesOf, type FieldStates } from '../../../src/domain/forms/field-states';
import type { FormSchema } from '../../../src/domain/forms/format';
import { PREFECTURES } from '../../../src/domain/prefectures';
import type { FormRuleContext, OfferedOption } from '../../../src/domain/rules/registry';
import { childApplicants, generalApplicants, type PersonalEntry } from './applicants';
import { formSchemaOf, sampleContextOf } from './generic-form';
import type { FormWithDriver } from './own-forms';

/**
 * What a generated journey's applicant does differently on the forms with drivers of their own
 * (drivers/index.ts), so that across a flow's journeys each condition of those forms holds and
 * fails and each conditional field is asked and skipped, as the samples do for every other form
 * (tests/model/form-visits.ts). The n-th journey of a flow takes the n-th variant of the list
 * (cyclically); a test outside the generated journeys takes none: the bank's applicant as is.
 *
 * The answers each variant makes are worked out here from the same data the drivers type, and
 * judged by the engine's own condition model (src/domain/forms/field-states.ts); the drivers
 * check on the page that exactly the fields so judged asked are shown.
 */
export interface OwnVariant {
  /** /personal: その他 among the purposes too, with this text. */
  otherPurpose?: string;
  /** /personal: 「該当する住所がない」 and this address typed, in a prefecture none of the banks is at home in. */
  temporaryAddress?: { prefecture: string; address: string; kana: string };
  /** /workplace, /child/parent, /child/personal: this occupation instead of the applicant's (and no workplace typed). */
  occupation?: { name: string; other?: string };
  /** /workplace: the first workplace code of the bank's master that permits another account, applied, and an account held. */
  appliedWorkplace?: { branch: string; account: string };
}

/** A distance reason, typed when the bank asks it. */
export const DISTANCE_REASON = '勤務先の近くで取引するため';

const ELSEWHERE: OwnVariant = {
  otherPurpose: '家賃の引き落とし',
  temporaryAddress: { prefecture: '東京都', address: '千代田区丸の内1-1-1', kana: 'ﾁﾖﾀﾞｸﾏﾙﾉｳﾁ1-1-1' },
};
const OTHER_OCCUPATION: OwnVariant = { occupation: { name: 'その他', other: '家業の手伝い' } };
const APPLIED_WORKPLACE: OwnVariant = { occupation: { name: '会社員' }, appliedWorkplace: { branch: '12', account: '3456' } };

export const OWN_VARIANTS: Readonly<Record<FormWithDriver, readonly OwnVariant[]>> = {
  // The child's occupation is asked on /child/personal (the workplace form beside the personal one).
  personal: [{ ...ELSEWHERE, ...OTHER_OCCUPATION }, {}, ELSEWHERE],
  workplace: [OTHER_OCCUPATION, {}, APPLIED_WORKPLACE],
  parent: [OTHER_OCCUPATION, {}],
  branch: [{}],
  sealLess: [{}],
};

/** The variant of the `journey`-th journey (none outside the generated journeys). */
export function ownVariantOf(form: FormWithDriver, journey: number | undefined): OwnVariant {
  const variants = OWN_VARIANTS[form];
  return journey === undefined ? {} : (variants[journey % variants.length] ?? {});
}

function masterOf<T>(bank: string, file: string, key: string): T[] {
  const json = JSON.parse(readFileSync(new URL(`../../../banks/${bank}/${file}.json`, import.meta.url), 'utf8')) as Record<string, T[]>;
  return json[key] ?? [];
}

interface MasterOccupation {
  id: number;
  name: string;
  workplaceRequired: boolean;
}

/** The bank's first workplace whose staff may hold another account. */
export function permittedWorkplaceOf(bank: string): { id: number; code: string } {
  const found = masterOf<{ id: number; code: string; multipleAccounts: string }>(bank, 'workplaces', 'workplaces').find((w) => w.multipleAccounts === 'PERMITTED');
  if (!found) throw new Error(`banks/${bank}/workplaces.json: no workplace permits another account`);
  return found;
}

function occupationIdOf(bank: string, name: string): number {
  const found = masterOf<MasterOccupation>(bank, 'occupations', 'occupations').find((occupation) => occupation.name === name);
  if (!found) throw new Error(`banks/${bank}/occupations.json: no occupation ${name}`);
  return found.id;
}

function purposeValuesOf(bank: string, labels: readonly string[]): string[] {
  const { UTILIZATION_PURPOSE_LIST: list } = JSON.parse(readFileSync(new URL(`../../../banks/${bank}/bank.json`, import.meta.url), 'utf8')) as BankConfig;
  return labels.map((label) => list.find((purpose) => purpose.label === label)?.value ?? label);
}

function personalAnswers(entry: PersonalEntry, variant: OwnVariant, bank: string): Record<string, unknown> {
  const temporary = variant.temporaryAddress;
  const labels = [...entry.purposes, ...(variant.otherPurpose === undefined ? [] : ['その他'])];
  return {
    noMatchingAddress: temporary !== undefined,
    ...(temporary ? { tempAddressPrefecture: temporary.prefecture } : { addressPrefecture: PREFECTURES.find((name) => entry.address.startsWith(name)) }),
    utilizationPurpose: purposeValuesOf(bank, labels),
    ...(variant.otherPurpose === undefined ? {} : { utilizationPurposeOther: variant.otherPurpose }),
  };
}

function occupationAnswers(bank: string, applicantOccupation: string, variant: OwnVariant): Record<string, unknown> {
  const applied = variant.appliedWorkplace ? { workplaceId: permittedWorkplaceOf(bank).id, multipleAccountsPermitted: true } : {};
  return { occupationId: occupationIdOf(bank, variant.occupation?.name ?? applicantOccupation), ...applied };
}

/** What the drivers' answers to `form` (one of the forms their pages ask) say to its conditions. */
function ownAnswersOf(form: string, flowId: string, bank: string, variantOf: (page: FormWithDriver) => OwnVariant): Record<string, unknown> {
  const code = bank as keyof typeof generalApplicants;
  if (form === 'personal') {
    const entry = flowId === 'child' ? childApplicants[code].child : generalApplicants[code].person;
    return personalAnswers(entry, variantOf('personal'), bank);
  }
  if (form === 'workplace' && flowId === 'child') return occupationAnswers(bank, childApplicants[code].child.occupation, variantOf('personal'));
  if (form === 'workplace') return occupationAnswers(bank, generalApplicants[code].occupation, variantOf('workplace'));
  if (form === 'parent-workplace') return occupationAnswers(bank, childApplicants[code].parent.occupation, variantOf('parent'));
  return {};
}

/** What the conditions read beyond the answers: the bank's settings and the occupations it offers. */
function ownContextOf(bank: string, flowId: string): FormRuleContext {
  const occupations: OfferedOption[] = masterOf<MasterOccupation>(bank, 'occupations', 'occupations').map((occupation) => ({
    value: occupation.id,
    label: occupation.name,
    data: { workplaceRequired: occupation.workplaceRequired },
  }));
  return { ...sampleContextOf(bank, flowId === 'child' ? 'CHILD' : 'GENERAL'), offered: { occupationId: occupations } };
}

/** How the `journey`-th journey's answers leave each field of `form` (a form of a page with a driver of its own). */
export function ownFormStates(form: string, flowId: string, bank: string, journey: number | undefined): { schema: FormSchema; states: FieldStates } {
  const schema = formFor(formSchemaOf(form), flowId);
  const answers = ownAnswersOf(form, flowId, bank, (page) => ownVariantOf(page, journey));
  return { schema, states: fieldStatesOf(schema, answers, ownContextOf(bank, flowId)) };
}
