/**
 * The bank master data of banks/<code>/*.json (validated by banks/master-data.schema.json;
 * keep both in step). The API answers with these shapes, and the page reads them as such.
 */

export const multipleAccountsValues = ['PERMITTED', 'NOT_PERMITTED'] as const;
export type MultipleAccounts = (typeof multipleAccountsValues)[number];

/** A workplace whose employees may state an account they already hold (spec section 6). */
export const MULTIPLE_ACCOUNTS_PERMITTED = 'PERMITTED' satisfies MultipleAccounts;

export interface Occupation {
  id: number;
  name: string;
  displayNumber: number;
  generalDisplay: boolean;
  childDisplay: boolean;
  /** Inclusive; null = no lower bound. */
  minDisplayAge: number | null;
  /** Inclusive; null = unbounded. */
  maxDisplayAge: number | null;
  workplaceRequired: boolean;
}

export interface Branch {
  code: string;
  name: string;
  address: string;
}

export interface Workplace {
  id: number;
  code: string;
  name: string;
  phoneNumber: string;
  multipleAccounts: MultipleAccounts;
}

/** A workplace found by its code (GET /api/workplace?code=). */
export type WorkplaceLookup = Pick<Workplace, 'id' | 'name' | 'phoneNumber' | 'multipleAccounts'>;

export interface Invitation {
  code: string;
  name: string;
  enabled: boolean;
  /** Last day (YYYY-MM-DD, Japan time) the code is accepted; null = no end. */
  validUntil: string | null;
}

export interface BankMasterData {
  bankCode: string;
  occupations: Occupation[];
  branches: Branch[];
  workplaces: Workplace[];
  invitations: Invitation[];
}
