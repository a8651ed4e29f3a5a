import { and, eq, gt, gte, sql } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { messages } from '../../domain/messages.js';
import { hashAuthToken } from '../crypto.js';
import { qualified } from '../db/qualified.js';
import { applicationPins, applications, authTokens } from '../db/schema.js';
import type { AuthenticatedApplication } from '../types.js';

/** A session ends after SESSION_IDLE_MS without a request (config.session), and in any case 12 hours after the e-mail verification. */
export const SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;

/** 32 bytes in base64url without padding. */
// The scheme name is case-insensitive (RFC 9110 section 11.1).
const bearer = /^bearer ([A-Za-z0-9_-]{43})$/i;

const auth: FastifyPluginAsync = async (app) => {
  app.decorateRequest('application', null);
};

export default fp(auth, { name: 'auth', fastify: '5.x', dependencies: ['database'] });

const pinSetOf = sql<boolean>`exists (select 1 from ${applicationPins} where ${qualified(applicationPins.applicationId)} = ${qualified(applications.id)})`;

/**
 * preHandler of the authenticated API routes. Answers 401 (the browser then shows the session
 * error page) when the token is missing, unknown, idle too long, too old, or was issued by
 * another bank than the host's (or the host has no bank); otherwise records the activity and
 * sets request.application.
 */
export async function requireApplication(request: FastifyRequest, reply: FastifyReply) {
  const { db, now: clock, config } = request.server;
  const match = bearer.exec(request.headers.authorization ?? '');
  const unauthorized = () => reply.code(401).send({ message: messages.unauthorized });
  if (!match?.[1]) return unauthorized();
  const bankCode = request.bank?.code;
  if (!bankCode) return unauthorized();
  const now = clock();
  // One statement checks the token and records the activity: a token of another bank, expired
  // or idle too long matches no row and is not touched. It also tells whether the PIN is set,
  // which every step-editing POST, the PIN's and the eKYC's routes ask first.
  const [row] = await db
    .update(authTokens)
    .set({ lastSeenAt: now })
    .from(applications)
    .where(
      and(
        eq(authTokens.tokenHash, hashAuthToken(match[1])),
        eq(applications.id, authTokens.applicationId),
        eq(applications.bankCode, bankCode),
        gt(authTokens.expiresAt, now),
        gte(authTokens.lastSeenAt, new Date(now.getTime() - config.session.idleMs)),
      ),
    )
    .returning({
      id: applications.id,
      bankCode: applications.bankCode,
      applicationType: applications.applicationType,
      flowVersion: applications.flowVersion,
      pinSet: pinSetOf,
    });
  if (!row) return unauthorized();
  request.application = { id: row.id, bankCode: row.bankCode, applicationType: row.applicationType, flowVersion: row.flowVersion, pinSet: row.pinSet };
}

/** The applicant of a route guarded by requireApplication (a missing guard is a bug: 500). */
export function applicationOf(request: FastifyRequest): AuthenticatedApplication {
  if (!request.application) throw new Error(`${request.routeOptions.url ?? 'route'} lacks the requireApplication preHandler`);
  return request.application;
}
