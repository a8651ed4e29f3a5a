import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { messages } from '../../domain/messages.js';
import { isPrefecture } from '../../domain/prefectures.js';
import {
  ageOn,
  isEmptyPhone,
  needsDistanceReason,
  normalizeDigits,
  normalizeKanaAddress,
  normalizeKanaName,
  normalizeWorkplaceCode,
  normalizeWorkplaceName,
  personalRuleErrors,
  PURPOSE_OTHER_VALUE,
  toJapaneseEra,
  workplaceRuleErrors,
  type FieldError,
  isOccupationOffered,
  OTHER_OCCUPATION_NAME,
  type OccupationAudience,
} from '../../domain/rules/index.js';
import {
  ADDRESS_PART_FIELDS,
  candidateAddressParts,
  PERSONAL_FIELDS_TO_POSTAL,
  PERSONAL_TYPED_ADDRESS_FIELDS,
  WORKPLACE_FIELDS,
  type AddressCandidate,
  type AddressPartField,
  type WorkplaceBody,
} from '../../domain/steps.js';
import { applications, type Gender } from '../db/schema.js';
import { MULTIPLE_ACCOUNTS_PERMITTED, type Occupation, type Workplace } from '../../domain/masterdata.js';
import { applicationOf } from '../plugins/auth.js';
import { validateBody } from '../validation.js';
import { trimSpaces } from '../../domain/rules/spaces.js';
import { badRequest, rewrite, type Body } from './step-bodies.js';
import { occupationOf, validInvitation, workplaceById } from './master-data.js';
import { stepEditHooks } from './step-lock.js';

/** Body of POST /api/applications/personal, once schemas/personal.schema.json accepted it. */
interface PersonalBody {
  lastName: string;
  firstName: string;
  kanaLastName: string;
  kanaFirstName: string;
  birthday: string;
  gender: Gender;
  mobilePhoneNumber: string;
  phoneNumber?: string | null;
  noMatchingAddress?: boolean;
  postalNumber?: string | null;
  addressCode?: string | null;
  subAddress?: string | null;
  kanaSubAddress?: string | null;
  tempAddressPrefecture?: string | null;
  tempAddress?: string | null;
  kanaTempAddress?: string | null;
  utilizationPurpose: string[];
  utilizationPurposeOther?: string | null;
  distanceTransactionReason?: string | null;
}

/** Body of POST /api/applications/workplace, once schemas/workplace.schema.json accepted it. */
type WorkplaceRequestBody = Pick<WorkplaceBody, 'occupationId'> & Partial<Omit<WorkplaceBody, 'occupationId'>>;


/** The searched address's fields of an application with a temporary address. */
const NO_ADDRESS_PARTS = Object.fromEntries(ADDRESS_PART_FIELDS.map((field) => [field, null])) as Record<AddressPartField, null>;

// The forms' field order: the 400's `message` is the first field's, as the page focuses it.
const PERSONAL_FIELDS = [
  ...PERSONAL_FIELDS_TO_POSTAL,
  'addressCode',
  ...PERSONAL_TYPED_ADDRESS_FIELDS,
  'distanceTransactionReason',
  'utilizationPurpose',
  'utilizationPurposeOther',
];
/**
 * What the page's blur handlers do, done again before the schema sees the body, so the server
 * checks and stores what the applicant meant whether or not the page normalised: kana
 * fields by the rules' normalisers (small kana to large, half width…), trimmed names, a
 * hyphenated or full-width postal code, optional fields left empty as null (a home phone of
 * two hyphens only is no number).
 */
function normalizePersonal(body: Body): void {
  rewrite(body, 'lastName', trimSpaces, false);
  rewrite(body, 'firstName', trimSpaces, false);
  rewrite(body, 'kanaLastName', normalizeKanaName, false);
  rewrite(body, 'kanaFirstName', normalizeKanaName, false);
  rewrite(body, 'kanaSubAddress', normalizeKanaAddress, false);
  rewrite(body, 'kanaTempAddress', normalizeKanaAddress, false);
  rewrite(body, 'subAddress', trimSpaces, false);
  rewrite(body, 'tempAddress', trimSpaces, false);
  rewrite(body, 'postalNumber', (value) => normalizeDigits(value.trim()).replace(/^(\d{3})-(\d{4})$/, '$1$2'), true);
  if (typeof body.phoneNumber === 'string' && isEmptyPhone(body.phoneNumber)) body.phoneNumber = null;
  rewrite(body, 'utilizationPurposeOther', trimSpaces, true);
  rewrite(body, 'distanceTransactionReason', trimSpaces, true);
}

/** 1-3 or 1-7 digits as typed -> zero-padded (the page pads on send; a direct call may not). */
function padDigits(length: number) {
  return (value: string) => {
    const digits = normalizeDigits(value).replace(/[\s\u3000]/g, '');
    return new RegExp(`^\\d{1,${length}}$`).test(digits) ? digits.padStart(length, '0') : digits;
  };
}

/** As normalizePersonal, for the workplace step: name widened, codes half-width upper case. */
function normalizeWorkplace(body: Body): void {
  rewrite(body, 'occupationOther', trimSpaces, true);
  rewrite(body, 'workplaceName', normalizeWorkplaceName, true);
  if (typeof body.workplacePhoneNumber === 'string' && isEmptyPhone(body.workplacePhoneNumber)) body.workplacePhoneNumber = null;
  rewrite(body, 'invitationCode', normalizeWorkplaceCode, true);
  rewrite(body, 'existedAccountBranchCode', padDigits(3), true);
  rewrite(body, 'existedAccountNumber', padDigits(7), true);
}

/** '1990-01-15' -> '平成2年1月15日' (生年月日（和暦）, as bank forms print it). */
export function eraBirthdayOf(birthday: string): string {
  const [, month, day] = birthday.split('-').map(Number);
  return `${toJapaneseEra(birthday).label}${month}月${day}日`;
}

/** Whether an occupation is offered to this applicant (the page lists only those). */
function offered(occupation: Occupation, applicationType: 'GENERAL' | 'CHILD', birthday: string | null, now: Date): boolean {
  const audience: OccupationAudience = applicationType === 'GENERAL' ? { kind: 'adult' } : { kind: 'child', age: birthday ? ageOn(birthday, now) : null };
  return isOccupationOffered(occupation, audience);
}

/**
 * The steps of the general flow that store data (spec section 7). Each validates the whole
 * body first (JSON Schema, then the shared rules, then what needs our data: the postal
 * candidate, the master data) and only then writes, in one UPDATE, so a refused request
 * leaves everything saved before unchanged. All answer 200 {} or 400 { message, errors }
 * with the Japanese messages of spec section 5.
 *
 * The session is checked onRequest, before the body is even parsed: a request without a
 * valid token is 401 whatever it carries (preValidation, where the body is checked, comes
 * after it in Fastify's lifecycle; preHandler would come after). So is the lock: 409 once
 * the PIN is set (step-lock.ts).
 */
const applicationStepRoutes: FastifyPluginAsync = async (app) => {
  /**
   * POST /api/applications/personal. The registered address is taken from OUR postal data for
   * the candidate the body names (addressCode among GET /api/addresses' answers for
   * postalNumber, else messages.searchAddress), never from the body's address fields; with
   * noMatchingAddress the temporary address is stored and the registered fields are null,
   * and the other way round.
   */
  app.post<{ Body: PersonalBody }>(
    '/applications/personal',
    { onRequest: stepEditHooks, preValidation: validateBody('personal.schema.json', normalizePersonal) },
    async (request, reply) => {
      const { id, applicationType } = applicationOf(request);
      const bank = request.bank;
      if (!bank) throw new Error('requireApplication let a request without a bank through');
      const body = request.body;
      const temporary = body.noMatchingAddress === true;
      const now = app.now();

      const errors: FieldError[] = [];
      let candidate: AddressCandidate | undefined;
      if (!temporary) {
        candidate = await app.postal.candidate(body.postalNumber ?? '', body.addressCode ?? '');
        if (!candidate) errors.push({ field: 'addressCode', message: messages.searchAddress });
      } else if (!isPrefecture(body.tempAddressPrefecture)) {
        errors.push({ field: 'tempAddressPrefecture', message: messages.selectRequired });
      }
      // The distance rule looks at the prefecture we will store, not one the body claims.
      errors.push(...personalRuleErrors({ ...body, addressPrefecture: candidate?.prefecture ?? null }, { applicationType, bank, today: now }));
      if (errors.length > 0) return badRequest(reply, errors, PERSONAL_FIELDS);

      const prefecture = candidate ? candidate.prefecture : (body.tempAddressPrefecture ?? null);
      // Stored in the bank's list order, so the same choice is always the same text.
      const selected = bank.UTILIZATION_PURPOSE_LIST.map((purpose) => purpose.value).filter((value) =>
        body.utilizationPurpose.includes(value),
      );
      const address = candidate
        ? {
            ...candidateAddressParts(candidate),
            address: candidate.addressFull,
            kanaAddress: [candidate.kanaPrefecture, candidate.kanaMunicipality, candidate.kanaSection, candidate.kanaChome].join(''),
            subAddress: body.subAddress ?? null,
            kanaSubAddress: body.kanaSubAddress ?? null,
            tempAddressPrefecture: null,
            tempAddress: null,
            kanaTempAddress: null,
          }
        : {
            ...NO_ADDRESS_PARTS,
            address: null,
            kanaAddress: null,
            subAddress: null,
            kanaSubAddress: null,
            tempAddressPrefecture: body.tempAddressPrefecture ?? null,
            tempAddress: body.tempAddress ?? null,
            kanaTempAddress: body.kanaTempAddress ?? null,
          };
      await app.db
        .update(applications)
        .set({
          lastName: body.lastName,
          firstName: body.firstName,
          kanaLastName: body.kanaLastName,
          kanaFirstName: body.kanaFirstName,
          gender: body.gender,
          birthday: body.birthday,
          eraBirthday: eraBirthdayOf(body.birthday),
          mobilePhoneNumber: body.mobilePhoneNumber,
          phoneNumber: body.phoneNumber ?? null,
          // Kept with a temporary address too when typed: the card is posted to it.
          postalNumber: body.postalNumber ?? null,
          ...address,
          utilizationPurpose: selected.join(','),
          utilizationPurposeOther: selected.includes(PURPOSE_OTHER_VALUE) ? (body.utilizationPurposeOther ?? null) : null,
          distanceTransactionReason: needsDistanceReason(bank, prefecture) ? (body.distanceTransactionReason ?? null) : null,
          updatedAt: now,
        })
        .where(eq(applications.id, id));
      return {};
    },
  );

  /**
   * POST /api/applications/workplace. The occupation must be one of the bank's offered to
   * this applicant; a workplaceId must be the bank's, and then its name, phone and code are
   * stored from the master data whatever the body says (the page shows them locked); an
   * invitation code must be valid today; an existing account is kept only for a workplace
   * that permits multiple accounts. In the child flow (posted by /child/personal with the
   * child's occupation) workplaceId and the existing account are not used (spec section 3) and
   * stored as null; the invitation code is the child application's own, checked and stored
   * as in the general flow (null removes it).
   */
  app.post<{ Body: WorkplaceRequestBody }>(
    '/applications/workplace',
    { onRequest: stepEditHooks, preValidation: validateBody('workplace.schema.json', normalizeWorkplace) },
    async (request, reply) => {
      const { id, bankCode, applicationType } = applicationOf(request);
      const body = request.body;
      const now = app.now();
      const [saved] = await app.db.select({ birthday: applications.birthday }).from(applications).where(eq(applications.id, id)).limit(1);

      const errors: FieldError[] = [];
      const found = await occupationOf(app.db, bankCode, body.occupationId);
      const occupation = found && offered(found, applicationType, saved?.birthday ?? null, now) ? found : undefined;
      if (!occupation) errors.push({ field: 'occupationId', message: messages.selectRequired });

      let workplace: Workplace | undefined;
      if (applicationType === 'GENERAL' && body.workplaceId !== null && body.workplaceId !== undefined) {
        workplace = await workplaceById(app.db, bankCode, body.workplaceId);
        if (!workplace) errors.push({ field: 'workplaceId', message: messages.workplaceNotFound });
      }
      const permitted = workplace?.multipleAccounts === MULTIPLE_ACCOUNTS_PERMITTED;
      const effective = {
        ...body,
        workplaceName: workplace ? workplace.name : (body.workplaceName ?? null),
        workplacePhoneNumber: workplace ? workplace.phoneNumber : (body.workplacePhoneNumber ?? null),
        existedAccountBranchCode: permitted ? (body.existedAccountBranchCode ?? null) : null,
        existedAccountNumber: permitted ? (body.existedAccountNumber ?? null) : null,
      };
      if (occupation) errors.push(...workplaceRuleErrors(effective, { occupation }));

      const invitationCode = body.invitationCode ?? null;
      if (invitationCode !== null && !(await validInvitation(app.db, bankCode, invitationCode, now))) {
        errors.push({ field: 'invitationCode', message: messages.invitationNotFound });
      }
      if (errors.length > 0 || !occupation) return badRequest(reply, errors, WORKPLACE_FIELDS);

      await app.db
        .update(applications)
        .set({
          occupationId: occupation.id,
          occupationName: occupation.name,
          occupationOther: occupation.name === OTHER_OCCUPATION_NAME ? (body.occupationOther ?? null) : null,
          workplaceId: workplace?.id ?? null,
          workplaceCode: workplace?.code ?? null,
          workplaceName: effective.workplaceName,
          workplacePhoneNumber: effective.workplacePhoneNumber,
          invitationCode,
          existedAccountBranchCode: effective.existedAccountBranchCode,
          existedAccountNumber: effective.existedAccountNumber,
          updatedAt: now,
        })
        .where(eq(applications.id, id));
      return {};
    },
  );
};

export default applicationStepRoutes;
