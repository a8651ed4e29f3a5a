import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { retentionDaysOf } from '../../domain/bank/types.js';
import { messages } from '../../domain/messages.js';
import { hashAuthToken, newAuthToken } from '../crypto.js';
import { authTokens, verificationCodes } from '../db/schema.js';
import { applicationOf, requireApplication, SESSION_LIFETIME_MS } from '../plugins/auth.js';
import { keptUntil, newestApplication, queueResumeMail, resumePathOf } from '../resume/applications.js';
import { liveCode } from '../verification/codes.js';
import { matchingCode, verificationFailed, verifyRouteOptions, type VerifyBody } from './verification-codes.js';

/** Mails 「あとで再開する」 may send per session and hour: enough for a person, too few to flood a mailbox. */
const SAVE_FOR_LATER_PER_HOUR = 5;
const ONE_HOUR_MS = 60 * 60 * 1000;

/**
 * Resuming an application without an account (issue 14, ADR 0030).
 *
 * POST /api/verification-codes/resume takes what /verify takes: a fresh code from POST
 * /api/verification-codes/register (the same mail, limits and rules), and answers with a new
 * authentication token for the applicant's newest application of this bank and type, and the
 * path of the furthest step it reached (`path`, derived from the flow: domain/flow/resume.ts).
 * The application keeps its id. Register answers alike for every address, so only the owner of
 * the mailbox, holding the code, learns whether there is anything to resume: 404 when nothing
 * is kept (none, another bank's, or past the retention), 409 when it is complete. The code is
 * used up either way.
 *
 * POST /api/applications/save-for-later: 「あとで再開する」 mails how long the application is kept
 * and how to resume it (200 { retentionDays }).
 */
const resumeRoutes: FastifyPluginAsync = async (app) => {
  app.post<{ Body: VerifyBody }>('/verification-codes/resume', verifyRouteOptions(app.config), async (request, reply) => {
    const { bankCode, mailAddress, applicationType } = request.body;
    const bank = request.bank;
    if (!bank) throw new Error('requireBank let a request without a bank through');
    const now = app.now();
    const codeId = await matchingCode(app, request.body, now);
    if (!codeId) return verificationFailed(reply);
    const found = await newestApplication(app.db, bankCode, applicationType, mailAddress, app.hasher.mail(mailAddress));
    const token = newAuthToken();
    const claimed = await app.db.transaction(async (tx) => {
      const [code] = await tx
        .update(verificationCodes)
        .set({ usedAt: now })
        .where(and(eq(verificationCodes.id, codeId), liveCode(now)))
        .returning({ id: verificationCodes.id });
      if (!code || !found || found.completed || keptUntil(bank, found.updatedAt) <= now) return Boolean(code);
      await tx.insert(authTokens).values({
        tokenHash: hashAuthToken(token),
        applicationId: found.id,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
      });
      return true;
    });
    // A second request with the same code found it claimed: as a wrong code.
    if (!claimed) return verificationFailed(reply);
    if (found?.completed) return reply.code(409).send({ message: messages.resumeCompleted });
    if (!found || keptUntil(bank, found.updatedAt) <= now) return reply.code(404).send({ message: messages.resumeNotFound(retentionDaysOf(bank)) });
    // The page switches to the application's flow version (it may be older than the page's).
    const { version: flowVersion } = (await app.flowVersions.of(found)) ?? (await app.flowVersions.forNewApplication(applicationType));
    return { authenticationToken: token, flowVersion, path: await resumePathOf(app, found) };
  });

  const limitSession = app.createRateLimit({
    max: SAVE_FOR_LATER_PER_HOUR,
    timeWindow: ONE_HOUR_MS,
    keyGenerator: (request) => `save-for-later:${applicationOf(request).id}`,
  });

  app.post('/applications/save-for-later', { onRequest: requireApplication }, async (request, reply) => {
    const application = applicationOf(request);
    const bank = request.bank;
    if (!bank) throw new Error('requireApplication let a request without a bank through');
    const limit = await limitSession(request);
    if (!limit.isAllowed && limit.isExceeded) {
      return reply.code(429).header('retry-after', limit.ttlInSeconds).send({ message: messages.tooManyRequests });
    }
    await queueResumeMail(app, bank, application, app.now());
    return { retentionDays: retentionDaysOf(bank) };
  });
};

export default resumeRoutes;
