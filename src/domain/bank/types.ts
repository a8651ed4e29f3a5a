import type { MethodWindow, VerificationMethod } from '../identity-check-methods';

/**
 * A bank of the group, read from banks/<code>/bank.json (validated by banks/bank.schema.json).
 * Upper-case names are the configuration fields the spec names (section 3); the rest are the
 * texts, links and images every screen needs. A new bank is a new folder, never new code.
 */
export interface UtilizationPurpose {
  /** Value stored in utilizationPurpose (comma-joined). */
  value: string;
  label: string;
}

export interface ContactInformation {
  name: string;
  phoneNumber: string;
  receptionHours: string;
}

export interface BankLinks {
  webRegulations: string;
  personalInformation: string;
  antiSocialForces: string;
  generalAccountRules: string;
  cashCardRules: string;
  directBankingRules: string;
  myBankPlusRules: string;
  unusedAccountFee: string;
  myNumberGuide: string;
  foreignPepGuide: string;
  branchSearch: string;
  questionnaire: string;
  homepage: string;
  serviceIntroduction: string;
  groupSite: string;
}

export interface BankFooter {
  registration: string;
  membership: string;
  copyright: string;
}

export interface BankConfig {
  code: string;
  NAME: string;
  legalName: string;
  MAIL_ADDRESS: string;
  DOMAIN: string;
  /** Further production host names of the bank (optional). */
  DOMAIN_ALIASES?: string[];
  TERM_OF_SERVICE_URL: string;
  MYBANK_INTRODUCTION_URL: string;
  DEFAULT_TEMP_ADDRESS_PREFECTURE: string;
  UTILIZATION_PURPOSE_LIST: UtilizationPurpose[];
  CONTACT_INFORMATION: ContactInformation;
  /** Prefecture of the bank's home area (distance-transaction reason applies outside it). */
  homePrefecture: string;
  /** Whether an applicant living outside homePrefecture must give a distance-transaction reason. */
  distanceTransactionReasonRequired: boolean;
  /** Prefectures named in the child eligibility text besides the home area. */
  neighbouringPrefectures: string[];
  /** Brand colour used for the header and primary buttons (CSS colour). */
  themeColor: string;
  footer: BankFooter;
  links: BankLinks;
  /** File names inside the bank folder. */
  images: { logo: string; top: string; card: string };
  /**
   * Days an application not completed is kept after its last entry, to be resumed
   * (DEFAULT_RETENTION_DAYS when absent; ADR 0030).
   */
  applicationRetentionDays?: number;
  /**
   * Days a completed application keeps its data after the bank confirmed receipt, before only
   * its stub is left (DEFAULT_DELIVERED_RETENTION_DAYS when absent; ADR 0036).
   */
  deliveredApplicationRetentionDays?: number;
  /**
   * Years a verification record is kept after it was written (DEFAULT_RECORD_RETENTION_YEARS
   * when absent, never less; ADR 0034).
   */
  verificationRecordRetentionYears?: number;
  /**
   * Where completed applications are handed to the bank (POST of a signed JSON document; ADR
   * 0033). Server-only. Required in production; elsewhere absent means the development receiver.
   */
  DELIVERY_ENDPOINT?: string;
  /** The identity-check methods offered and from/until which day each (ADR 0037). */
  identityCheckMethods: MethodWindow[];
}

/** How long an unfinished application is kept when the bank says nothing (issue 14). */
export const DEFAULT_RETENTION_DAYS = 30;

/** Days the bank keeps an unfinished application after its last entry. */
export function retentionDaysOf(bank: Pick<BankConfig, 'applicationRetentionDays'>): number {
  return bank.applicationRetentionDays ?? DEFAULT_RETENTION_DAYS;
}

/** How long a delivered application keeps its data when the bank says nothing (ADR 0036). */
export const DEFAULT_DELIVERED_RETENTION_DAYS = 7;

/** Days the bank keeps a delivered application's data after the bank confirmed receipt. */
export function deliveredRetentionDaysOf(bank: Pick<BankConfig, 'deliveredApplicationRetentionDays'>): number {
  return bank.deliveredApplicationRetentionDays ?? DEFAULT_DELIVERED_RETENTION_DAYS;
}

/** The Act's 7 years (犯罪収益移転防止法 第6条第2項): the default and the least a bank may set. */
export const DEFAULT_RECORD_RETENTION_YEARS = 7;

/** Years the bank keeps a verification record after it was written. */
export function recordRetentionYearsOf(bank: Pick<BankConfig, 'verificationRecordRetentionYears'>): number {
  return bank.verificationRecordRetentionYears ?? DEFAULT_RECORD_RETENTION_YEARS;
}

/**
 * What the browser receives: everything but server-only settings. Of the sender address only
 * its domain (after 「@」) goes to the page: the applicant allows mail from it on their phone.
 */
export type PublicBankConfig = Omit<BankConfig, 'MAIL_ADDRESS' | 'DELIVERY_ENDPOINT' | 'identityCheckMethods'> & { mailDomain: string };

/** 'kouza-web@fukuokabank.co.jp' → 'fukuokabank.co.jp'. */
export function mailDomainOf(mailAddress: string): string {
  return mailAddress.slice(mailAddress.lastIndexOf('@') + 1);
}

export function toPublicBankConfig(bank: BankConfig): PublicBankConfig {
  // The methods' dates stay on the server: the page is told what is offered on the day it loads (ClientSettings).
  const { MAIL_ADDRESS: mail, DELIVERY_ENDPOINT: _endpoint, identityCheckMethods: _methods, ...rest } = bank;
  return { ...rest, mailDomain: mailDomainOf(mail) };
}

/** Runtime settings the server hands to the page together with the bank. */
export interface ClientSettings {
  bank: PublicBankConfig;
  analyticsMeasurementId: string | null;
  /** Test-only override of the eKYC polling interval; null in production. */
  ekycPollIntervalMs: number | null;
  /** How long a session lasts without a request, and how long before its end the page offers to extend it (ms). */
  session: { idleMs: number; warningMs: number };
  production: boolean;
  /**
   * The identity-check methods the bank offers on the day (Japan time) the page was served, in
   * the bank's order: what the flows' methodOffered guard reads. The server checks again when
   * a check starts.
   */
  identityCheckMethods: VerificationMethod[];
}
