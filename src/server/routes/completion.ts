import type { FastifyPluginAsync } from 'fastify';
import { completeApplication, NUMBER_SLOT } from '../completion/complete.js';
import { completionBlocker } from '../completion/facts.js';
import { completionMail } from '../mail/index.js';
import { applicationOf, completionStateOfRequest, requireApplicationWithCompletion } from '../plugins/auth.js';
import { toJstIso } from '../time.js';

export { formatApplicationNumber } from '../completion/number.js';

/**
 * POST /api/application-complete -> { applicationNumber, applicationCompletedAt }
 *
 * Gives the application its number and acceptance time and mails the applicant, once: a
 * repeated call (the page retried, two tabs, a double tap) answers the same number and time
 * and sends no second mail. Number: completion/number.ts (a refused or raced request draws no
 * number: no gap, never a duplicate).
 *
 * 409 { message } unless the application can be handed over: every form its flow asks before
 * the PIN stored (forms/stored.ts; general: personal, workplace, branch, seal choice; child:
 * the child's personal data, the parent, branch), the PIN set, the newest identity
 * check approved (status 4), a requested current-address document uploaded, and for CHILD the
 * child's documents uploaded (completion/facts.ts). applicationCompletedAt is ISO 8601 in
 * Japan time.
 *
 * Two statements (ADR 0040): the session check reads what completion is judged by; the
 * completing statement (completion/complete.ts) writes the number, the time, the hand-off and
 * the mail only while the application is still as judged. When it did nothing (another
 * request completed it, or an identity check or upload moved the facts meanwhile), the
 * request judges again what that statement saw, and tries again while it may complete.
 */

/** How long the completion mail is retried while the SMTP server fails: after that it is stale. */
const COMPLETION_MAIL_DAYS = 3;
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Judgements per request: each one after the first follows a change another request made to
 * the application at that very moment, so a few are plenty.
 */
const ROUNDS = 4;

const completionRoutes: FastifyPluginAsync = async (app) => {
  app.post('/application-complete', { onRequest: requireApplicationWithCompletion }, async (request, reply) => {
    const application = applicationOf(request);
    const { id, bankCode, applicationType } = application;
    const bank = request.bank;
    if (!bank) throw new Error('requireApplication let a request without a bank through');
    const answer = (applicationNumber: string, completedAt: Date) => ({ applicationNumber, applicationCompletedAt: toJstIso(completedAt) });

    let state = completionStateOfRequest(request);
    for (let round = 0; round < ROUNDS; round += 1) {
      if (state.applicationNumber && state.applicationCompletedAt) return answer(state.applicationNumber, state.applicationCompletedAt);
      // Its own flow version (flows/versions.ts), not necessarily FLOWS_DIR's; needed only while
      // the application is not completed (a completed one's version may be dropped).
      const flow = await app.flowVersions.of(application);
      if (!flow) throw new Error('the flow version of a running application is not stored');
      // Only the stub of a delivered application has no address (ADR 0036), and it is completed.
      const mailAddress = state.mailAddress;
      if (mailAddress === null) throw new Error('an application not completed has no mail address');
      const message = completionBlocker(state.completionFacts, applicationType, flow.requiredForms, app.forms);
      if (message) return reply.code(409).send({ message });

      const now = app.now();
      const result = await completeApplication(app.db, {
        applicationId: id,
        bankCode,
        now,
        seen: { mailAddress, facts: state.completionFacts },
        mail: completionMail(bank, mailAddress, NUMBER_SLOT, now),
        discardAfter: new Date(now.getTime() + COMPLETION_MAIL_DAYS * DAY_MS),
        lockMs: { mail: app.config.mailQueue.lockMs, delivery: app.config.delivery.lockMs },
      });
      if (result.completed) {
        // Queued with the completion itself: the mail goes out once, and the application is
        // handed to the bank (ADR 0033), whatever happens to this request. Claimed by this
        // process as they were queued, and handed to its workers now that the statement has
        // committed (ADR 0041): no claim statement.
        if (result.claimed.delivery) app.deliveries.handOff(result.claimed.delivery);
        if (result.claimed.mail) app.mailQueue.handOff(result.claimed.mail);
        return answer(result.applicationNumber, result.completedAt);
      }
      state = result.state;
    }
    throw new Error(`the application changed under each of ${ROUNDS} completion attempts`);
  });
};

export default completionRoutes;
