import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { messages } from '../../domain/messages.js';
import {
  ageOn,
  workplaceRuleErrors,
  type FieldError,
  isOccupationOffered,
  OTHER_OCCUPATION_NAME,
  type OccupationAudience,
} from '../../domain/rules/index.js';
import { WORKPLACE_FIELDS, type WorkplaceBody } from '../../domain/steps.js';
import { applications } from '../db/schema.js';
import { MULTIPLE_ACCOUNTS_PERMITTED, type Occupation, type Workplace } from '../../domain/masterdata.js';
import { storedAnswersOf } from '../forms/answers.js';
import { applicationOf } from '../plugins/auth.js';
import { validateBody } from '../validation.js';
import { badRequest } from './step-bodies.js';
import { occupationOf, validInvitation, workplaceById } from './master-data.js';
import { stepEditHooks } from './step-lock.js';

/** Body of POST /api/applications/workplace, once schemas/workplace.schema.json accepted it. */
type WorkplaceRequestBody = Pick<WorkplaceBody, 'occupationId'> & Partial<Omit<WorkplaceBody, 'occupationId'>>;


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
    { onRequest: stepEditHooks, preValidation: validateBody('workplace.schema.json', 'as-the-form') },
    async (request, reply) => {
      const { id, bankCode, applicationType } = applicationOf(request);
      const body = request.body;
      const now = app.now();
      const saved = (await storedAnswersOf(app.db, app.forms, id))?.application;

      const errors: FieldError[] = [];
      const found = await occupationOf(app.db, bankCode, body.occupationId);
      const occupation = found && offered(found, applicationType, typeof saved?.birthday === 'string' ? saved.birthday : null, now) ? found : undefined;
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
