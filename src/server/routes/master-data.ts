import type { FastifyPluginAsync } from 'fastify';
import { messages } from '../../domain/messages.js';
import { isInvitationCodeShape, isWorkplaceCodeShape, normalizeWorkplaceCode } from '../../domain/rules/index.js';
import { validInvitation, workplaceByCode } from '../masterdata/queries.js';
import { requireSignedIn, signedInBankCodeOf } from '../plugins/auth.js';

interface CodeQuery {
  code?: unknown;
}

/**
 * The bank's master data as the workplace and branch steps read it (spec section 7), always
 * of the signed-in application's bank.
 *
 * GET /api/occupations -> { occupationList: Occupation[] } (every field; the page filters by
 *   generalDisplay, or childDisplay and the age bounds), by displayNumber with その他 last.
 * GET /api/workplace?code= -> { id, name, phoneNumber, multipleAccounts }; 404 with
 *   messages.workplaceNotFound for an unknown code or one not 6 or 8 characters long (after
 *   full-width to half-width and upper case, as the page does on blur).
 * GET /api/invitation?code= -> { code }; 404 with messages.invitationNotFound for an
 *   unknown, disabled or expired code.
 * GET /api/branch -> { branchList: [{ code, name, address }] } by code.
 */
const masterDataRoutes: FastifyPluginAsync = async (app) => {
  app.get('/occupations', { preHandler: requireSignedIn }, async (request) => {
    const bankCode = signedInBankCodeOf(request);
    return { occupationList: await app.masterData.occupationsOf(bankCode) };
  });

  app.get<{ Querystring: CodeQuery }>('/workplace', { preHandler: requireSignedIn }, async (request, reply) => {
    const bankCode = signedInBankCodeOf(request);
    const raw = request.query.code;
    const code = typeof raw === 'string' ? normalizeWorkplaceCode(raw) : '';
    const workplace = isWorkplaceCodeShape(code) ? await workplaceByCode(app.db, bankCode, code) : undefined;
    if (!workplace) return reply.code(404).send({ message: messages.workplaceNotFound });
    const { id, name, phoneNumber, multipleAccounts } = workplace;
    return { id, name, phoneNumber, multipleAccounts };
  });

  app.get<{ Querystring: CodeQuery }>('/invitation', { preHandler: requireSignedIn }, async (request, reply) => {
    const bankCode = signedInBankCodeOf(request);
    const raw = request.query.code;
    const code = typeof raw === 'string' ? normalizeWorkplaceCode(raw) : '';
    const invitation = isInvitationCodeShape(code) ? await validInvitation(app.db, bankCode, code, app.now()) : undefined;
    if (!invitation) return reply.code(404).send({ message: messages.invitationNotFound });
    return { code: invitation.code };
  });

  app.get('/branch', { preHandler: requireSignedIn }, async (request) => {
    const bankCode = signedInBankCodeOf(request);
    return { branchList: await app.masterData.branchesOf(bankCode) };
  });
};

export default masterDataRoutes;
