import type { FastifyInstance } from 'fastify';
import { messages } from '../../domain/messages.js';
import type { FieldError } from '../../domain/rules/field-error.js';
import { toJapaneseEra } from '../../domain/rules/dates.js';
import { isInvitationCodeShape } from '../../domain/rules/workplace.js';
import { MULTIPLE_ACCOUNTS_PERMITTED } from '../../domain/masterdata.js';
import { derivationFacts, type DerivationName } from '../../domain/forms/format.js';
import { candidateAddressParts } from '../../domain/steps.js';
import { validInvitation, workplaceById } from '../masterdata/queries.js';

/**
 * What the server adds to a form's answers from its own data (x-step.derive), before the
 * schema and the rules see them: a value the page also shows is replaced by ours, so what is
 * stored never rests on what a body claims. Each returns the values to merge and the
 * failures found on the way.
 */
export interface Derived {
  values: Record<string, unknown>;
  errors: FieldError[];
}

/** Whose answers: the applicant's bank, and now. */
export interface DerivationScope {
  bankCode: string;
  now: Date;
}

/** How a derivation adds what it adds (derivationFacts: what it follows and adds). */
interface Derivation {
  run: (app: FastifyInstance, answers: Readonly<Record<string, unknown>>, scope: DerivationScope) => Promise<Derived>;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** '1990-01-15' -> '平成2年1月15日' (生年月日（和暦）, as bank forms print it). */
export function eraBirthdayOf(birthday: string): string {
  const [, month, day] = birthday.split('-').map(Number);
  return `${toJapaneseEra(birthday).label}${month}月${day}日`;
}

export const derivations: Record<DerivationName, Derivation> = {
  /**
   * The registered address from OUR postal data, for the candidate the answers name
   * (addressCode among GET /api/addresses' answers for postalNumber), else
   * messages.searchAddress at addressCode. With a temporary address (noMatchingAddress) the
   * registered one is null.
   */
  postalAddress: {
    run: async (app, answers) => {
      if (answers.noMatchingAddress === true) return { values: { address: null, kanaAddress: null }, errors: [] };
      const candidate = await app.postal.candidate(text(answers.postalNumber), text(answers.addressCode));
      if (!candidate) return { values: {}, errors: [{ field: 'addressCode', message: messages.searchAddress }] };
      return {
        values: {
          ...candidateAddressParts(candidate),
          address: candidate.addressFull,
          kanaAddress: [candidate.kanaPrefecture, candidate.kanaMunicipality, candidate.kanaSection, candidate.kanaChome].join(''),
        },
        errors: [],
      };
    },
  },
  /** eraBirthday beside a real birthday (the schema judges the birthday itself). */
  eraBirthday: {
    run: async (_app, answers) => {
      const birthday = text(answers.birthday);
      try {
        return { values: /^\d{4}-\d{2}-\d{2}$/.test(birthday) ? { eraBirthday: eraBirthdayOf(birthday) } : {}, errors: [] };
      } catch {
        // Before the first era, or not a date: the schema and the age rule say so.
        return { values: {}, errors: [] };
      }
    },
  },
  /**
   * The applied workplace (workplaceId, the bank's) as the master data has it: its name, phone
   * and code replace what the body says (the page shows them locked), and
   * multipleAccountsPermitted says whether the existing account is asked (existingAccountAsked).
   * An id the bank does not have: messages.workplaceNotFound.
   */
  workplaceMaster: {
    run: async (app, answers, { bankCode }) => {
      const id = answers.workplaceId;
      // Outside the column's range the schema refuses it: no lookup.
      if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > 2_147_483_647) return { values: {}, errors: [] };
      const workplace = await workplaceById(app.db, bankCode, id);
      if (!workplace) return { values: {}, errors: [{ field: 'workplaceId', message: messages.workplaceNotFound }] };
      return {
        values: {
          workplaceCode: workplace.code,
          workplaceName: workplace.name,
          workplacePhoneNumber: workplace.phoneNumber,
          multipleAccountsPermitted: workplace.multipleAccounts === MULTIPLE_ACCOUNTS_PERMITTED,
        },
        errors: [],
      };
    },
  },
  /** invitationCode: one the bank accepts today, else messages.invitationNotFound (the schema judges its shape). */
  invitation: {
    run: async (app, answers, { bankCode, now }) => {
      const code = text(answers.invitationCode);
      if (!isInvitationCodeShape(code) || (await validInvitation(app.db, bankCode, code, now))) return { values: {}, errors: [] };
      return { values: {}, errors: [{ field: 'invitationCode', message: messages.invitationNotFound }] };
    },
  },
};
