import { readFileSync } from 'node:fs';
import type { BankCode } from '../support';

/**
 * The applicants the browser tests use, one place for all of them: per bank, an adult for the
 * general flow and a child with the parent who applies for them. Every value is valid for its
 * bank (an address in the bank's home prefecture, so no distance reason is asked; names whose
 * furigana the server suggests correctly). Birthdays are computed from today in Japan, so that
 * a child stays a child and a parent an adult whatever day the tests run.
 */

/** A date as the three selects of 生年月日 take it. */
export interface BirthdayEntry {
  year: string;
  month: string;
  day: string;
}

/** What an applicant types on /personal (and, for the child, on /child/personal). */
export interface PersonalEntry {
  lastName: string;
  firstName: string;
  /** The furigana the server suggests for the names (half-width katakana). */
  kanaLastName: string;
  kanaFirstName: string;
  birthday: BirthdayEntry;
  gender: '男性' | '女性';
  mobile: [string, string, string];
  postalNumber: string;
  /** The candidate to choose when the postal code has several. */
  address: string;
  subAddress: string;
  kanaSubAddress: string;
  /** Labels of the purposes of use to tick. */
  purposes: string[];
}

/** A workplace typed by hand (no workplace code). */
export interface WorkplaceEntry {
  name: string;
  phone: [string, string, string];
}

export interface GeneralApplicant {
  person: PersonalEntry;
  /** Occupation label on /workplace; with a workplace when the occupation needs one. */
  occupation: string;
  workplace?: WorkplaceEntry;
  /** Which branch of the bank's list to choose. */
  branchIndex: number;
  sealLess: boolean;
}

export interface ChildEntry extends PersonalEntry {
  /** The child's own occupation on /child/personal (one allowed at the child's age). */
  occupation: string;
}

export interface ParentEntry {
  lastName: string;
  firstName: string;
  kanaLastName: string;
  kanaFirstName: string;
  birthday: BirthdayEntry;
  relationship: '父' | '母';
  mobile: [string, string, string];
  occupation: string;
  workplace?: WorkplaceEntry;
}

export type SupplementaryDocumentName = '住民票の写し' | '母子健康手帳';

export interface ChildApplicant {
  child: ChildEntry;
  /** Same last name and kana last name as the child (spec section 5, "Parent"). */
  parent: ParentEntry;
  branchIndex: number;
  supplementary: SupplementaryDocumentName;
}

export interface CalendarDay {
  year: number;
  month: number;
  day: number;
}

/** Today's date in Japan, whatever the time zone of the machine running the tests. */
export function tokyoToday(now: Date = new Date()): CalendarDay {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Tokyo', year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return { year: part('year'), month: part('month'), day: part('day') };
}

export function birthdayOf({ year, month, day }: CalendarDay): BirthdayEntry {
  return { year: String(year), month: String(month), day: String(day) };
}

/**
 * Born on 2 April of the year `years` before this one: `years` or `years − 1` years old on any
 * day, which keeps each child inside the age bounds of the occupation chosen for them.
 */
function bornYearsAgo(years: number): BirthdayEntry {
  return birthdayOf({ year: tokyoToday().year - years, month: 4, day: 2 });
}

/**
 * An invitation code of the bank's own master data (banks/<code>/invitations.json, as the
 * server loads it) that is accepted on any day: enabled and without a last day.
 */
export function validInvitationCode(bank: BankCode): string {
  const file = new URL(`../../../banks/${bank}/invitations.json`, import.meta.url);
  const { invitations } = JSON.parse(readFileSync(file, 'utf8')) as { invitations: { code: string; enabled: boolean; validUntil: string | null }[] };
  const valid = invitations.find((invitation) => invitation.enabled && invitation.validUntil === null);
  if (!valid) throw new Error(`banks/${bank}/invitations.json: no invitation code valid on any day`);
  return valid.code;
}

/** A PIN none of the applicants' birthdays, phones or addresses forbid (57 is no month or day). */
export const PIN = '1357';

export const generalApplicants: Record<BankCode, GeneralApplicant> = {
  '0177': {
    person: {
      lastName: '福岡',
      firstName: '花子',
      kanaLastName: 'ﾌｸｵｶ',
      kanaFirstName: 'ﾊﾅｺ',
      birthday: { year: '1990', month: '4', day: '1' },
      gender: '女性',
      mobile: ['090', '1234', '5678'],
      postalNumber: '8100001',
      address: '福岡県福岡市中央区天神',
      subAddress: '2-13-1',
      kanaSubAddress: '2-13-1',
      purposes: ['給与・年金受取', '貯蓄・資産運用'],
    },
    occupation: '主婦・主夫',
    branchIndex: 1,
    sealLess: true,
  },
  '0587': {
    person: {
      lastName: '熊本',
      firstName: '太郎',
      kanaLastName: 'ｸﾏﾓﾄ',
      kanaFirstName: 'ﾀﾛｳ',
      birthday: { year: '1985', month: '11', day: '20' },
      gender: '男性',
      mobile: ['080', '2345', '6789'],
      postalNumber: '8600046',
      address: '熊本県熊本市中央区横手',
      subAddress: '1-2-3',
      kanaSubAddress: '1-2-3',
      purposes: ['生計費決済'],
    },
    occupation: '会社員',
    workplace: { name: '熊本物産株式会社', phone: ['096', '123', '4567'] },
    branchIndex: 2,
    sealLess: false,
  },
  '0181': {
    person: {
      lastName: '長崎',
      firstName: '一郎',
      kanaLastName: 'ﾅｶﾞｻｷ',
      kanaFirstName: 'ｲﾁﾛｳ',
      birthday: { year: '1978', month: '2', day: '14' },
      gender: '男性',
      mobile: ['070', '3456', '7890'],
      postalNumber: '8500853',
      address: '長崎県長崎市浜町',
      subAddress: '8-12',
      kanaSubAddress: '8-12',
      purposes: ['給与・年金受取'],
    },
    occupation: '学生',
    branchIndex: 0,
    sealLess: true,
  },
};

export const childApplicants: Record<BankCode, ChildApplicant> = {
  '0177': {
    child: {
      lastName: '福岡',
      firstName: '太郎',
      kanaLastName: 'ﾌｸｵｶ',
      kanaFirstName: 'ﾀﾛｳ',
      birthday: bornYearsAgo(9),
      gender: '男性',
      mobile: ['090', '1234', '5678'],
      postalNumber: '8100001',
      address: '福岡県福岡市中央区天神',
      subAddress: '2-13-1',
      kanaSubAddress: '2-13-1',
      purposes: ['貯蓄・資産運用'],
      occupation: '小学生',
    },
    parent: {
      lastName: '福岡',
      firstName: '花子',
      kanaLastName: 'ﾌｸｵｶ',
      kanaFirstName: 'ﾊﾅｺ',
      birthday: bornYearsAgo(38),
      relationship: '母',
      mobile: ['090', '1234', '5678'],
      occupation: '主婦・主夫',
    },
    branchIndex: 0,
    supplementary: '住民票の写し',
  },
  '0587': {
    child: {
      lastName: '熊本',
      firstName: '花子',
      kanaLastName: 'ｸﾏﾓﾄ',
      kanaFirstName: 'ﾊﾅｺ',
      birthday: bornYearsAgo(16),
      gender: '女性',
      mobile: ['080', '2345', '6789'],
      postalNumber: '8600046',
      address: '熊本県熊本市中央区横手',
      subAddress: '1-2-3',
      kanaSubAddress: '1-2-3',
      purposes: ['生計費決済'],
      occupation: '高校生',
    },
    parent: {
      lastName: '熊本',
      firstName: '太郎',
      kanaLastName: 'ｸﾏﾓﾄ',
      kanaFirstName: 'ﾀﾛｳ',
      birthday: bornYearsAgo(45),
      relationship: '父',
      mobile: ['080', '2345', '6789'],
      occupation: '会社員',
      workplace: { name: '熊本物産株式会社', phone: ['096', '123', '4567'] },
    },
    branchIndex: 1,
    supplementary: '母子健康手帳',
  },
  '0181': {
    child: {
      lastName: '長崎',
      firstName: '花子',
      kanaLastName: 'ﾅｶﾞｻｷ',
      kanaFirstName: 'ﾊﾅｺ',
      birthday: bornYearsAgo(3),
      gender: '女性',
      mobile: ['070', '3456', '7890'],
      postalNumber: '8500853',
      address: '長崎県長崎市浜町',
      subAddress: '8-12',
      kanaSubAddress: '8-12',
      purposes: ['貯蓄・資産運用'],
      occupation: '未就学児',
    },
    parent: {
      lastName: '長崎',
      firstName: '一郎',
      kanaLastName: 'ﾅｶﾞｻｷ',
      kanaFirstName: 'ｲﾁﾛｳ',
      birthday: bornYearsAgo(36),
      relationship: '父',
      mobile: ['070', '3456', '7890'],
      occupation: '公務員',
      workplace: { name: '長崎市役所', phone: ['095', '825', '5151'] },
    },
    branchIndex: 2,
    supplementary: '住民票の写し',
  },
};
