import type { WorkplaceLookup } from '../../domain/masterdata';
import { MULTIPLE_ACCOUNTS_PERMITTED } from '../../domain/masterdata';
import { messages } from '../../domain/messages';
import type { ApplicationTypeName } from '../../domain/forms/format';
import type { CodeKindName } from '../../domain/forms/ui-vocabulary';
import { isInvitationCodeShape, isWorkplaceCodeShape, splitPhone } from '../../domain/rules';
import { api, statusOf } from '../api/client';
import { cookies, session } from '../platform/session';
import type { FormData } from './context';

/**
 * The codes a CodeApplyWidget applies (`"ui:options": { "code": "workplace" }`): what 「適用」
 * asks the server, what a found code writes into the form (its value, and what the code brings
 * with it: the workplace's name and phone, whether it permits an existing account), what
 * 「クリア」 empties, and the code the landing URL brought. One entry per kind of code, so a new
 * kind is a new entry here, never a new screen.
 */

export interface FoundCode {
  /** The field's value: what the code resolves to (a workplace id, the verified invitation code). */
  value: string | number;
  /** Other answers and facts the code brings (written with the value; 「クリア」 empties them). */
  brings: FormData;
}

export interface CodeKind {
  /** How screen readers name the code on the buttons (「適用（勤務先コード）」). */
  name: string;
  maxLength: number;
  notFound: string;
  /** The code as applied: null when the bank has none (a 404, or a code of the wrong shape). */
  find: (code: string) => Promise<FoundCode | null>;
  /** What a found code brings, emptied (「クリア」, or another code applied). */
  clears: readonly string[];
  /** The code as it was applied, from a stored answer (the server keeps the workplace's code beside its id). */
  storedText: (data: FormData) => string;
  /** A stored code is looked up again as the page opens, for what it brings today (a workplace's current name). */
  recheckStored: boolean;
  /** The code the landing URL brought for this kind of applicant, if any. */
  fromLanding: (applicationType: ApplicationTypeName) => string | null;
}

/** GET path?code=… : the answer, or null for the 404 of an unknown code. */
async function lookUp<T>(path: string, code: string): Promise<T | null> {
  try {
    return await api<T>(path, { query: { code } });
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}

export const codeKinds = {
  /** 勤務先コード: fills and locks the workplace's name and phone; may ask for an existing account. */
  workplace: {
    name: '勤務先コード',
    maxLength: 8,
    notFound: messages.workplaceNotFound,
    find: async (code) => {
      const found = isWorkplaceCodeShape(code) ? await lookUp<WorkplaceLookup>('/workplace', code) : null;
      if (!found) return null;
      // A phone the page cannot show in three parts is our data's fault (spec section 8: the error page).
      if (splitPhone(found.phoneNumber) === null) throw new Error('the workplace phone number does not split into three parts');
      return {
        value: found.id,
        brings: {
          workplaceName: found.name,
          workplacePhoneNumber: found.phoneNumber,
          multipleAccountsPermitted: found.multipleAccounts === MULTIPLE_ACCOUNTS_PERMITTED,
        },
      };
    },
    clears: ['workplaceName', 'workplacePhoneNumber', 'workplaceCode', 'multipleAccountsPermitted', 'existedAccountBranchCode', 'existedAccountNumber'],
    storedText: (data) => (typeof data.workplaceCode === 'string' ? data.workplaceCode : ''),
    recheckStored: true,
    fromLanding: (applicationType) => (applicationType === 'GENERAL' ? cookies.get('workplace') : null),
  },
  /** 紹介コード: valid today, or not found. */
  invitation: {
    name: '紹介コード',
    maxLength: 6,
    notFound: messages.invitationNotFound,
    find: async (code) => (isInvitationCodeShape(code) && (await lookUp<unknown>('/invitation', code)) !== null ? { value: code, brings: {} } : null),
    clears: [],
    storedText: (data) => (typeof data.invitationCode === 'string' ? data.invitationCode : ''),
    // Verified when it was saved, and not asked for again.
    recheckStored: false,
    // The general landing keeps it 7 days in a cookie; /child/before-check for this visit only.
    fromLanding: (applicationType) => (applicationType === 'GENERAL' ? cookies.get('invitation') : session.get('invitation')),
  },
} satisfies Record<CodeKindName, CodeKind>;

export type { CodeKindName };

export function isCodeKindName(name: unknown): name is CodeKindName {
  return typeof name === 'string' && Object.hasOwn(codeKinds, name);
}
