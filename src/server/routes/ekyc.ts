import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { EKYC_MAX_ATTEMPTS, EKYC_STATUS, hasChildDocuments, isEkycPending } from '../../domain/ekyc.js';
import { providerMethods, VERIFICATION_METHODS, type ProviderMethod } from '../../domain/identity-check-methods.js';
import { messages } from '../../domain/messages.js';
import { applicationTypes, type ApplicationType } from '../db/schema.js';
import { EkycCallbackError } from '../ekyc/adapter.js';
import { applyProviderStatus, receiveCallback } from '../ekyc/callbacks.js';
import { childDocumentImagesOffered, providerMethodsOffered } from '../ekyc/providers.js';
import { httpMessages } from '../http-messages.js';
import { applicationOf, ekycStateOfRequest, requireApplicationWithEkyc } from '../plugins/auth.js';
import { insertEkycSession, latestEkycSession } from '../ekyc/sessions.js';
import { validateBody } from '../validation.js';
import { documentTypes } from '../uploads/store.js';

/**
 * The identity check (spec sections 4, 7 and 9; provider interface in src/server/ekyc/).
 *
 * POST /api/ekyc { supplement: false, applicationType?, method? } -> { url }
 *   Starts a session at the provider of `method` (ekyc/providers.ts) and answers where the
 *   browser goes. The method must be one the application's bank offers today (bank.json
 *   identityCheckMethods, ADR 0037), else 409; without it, the bank's first such method.
 *   applicationType,
 *   when sent, must be the application's (400 otherwise); the session records it (with
 *   started_at, the time the applicant left) and the provider returns the browser to
 *   /ekyc-callback (GENERAL) or /child/ekyc-callback (CHILD). For a child application this
 *   is the parent's check, the one session of the flow; the child's individual number card
 *   and supplementary document must be uploaded before (POST /api/documents).
 *   `supplement: true` is refused (400): the general flow's supplement is an upload to
 *   POST /api/documents, not a second session.
 *   409 { message } when the PIN is not set, the check is already approved, the
 *   application is complete, a child's documents are missing, or EKYC_MAX_ATTEMPTS sessions
 *   were started. A new session after a failed, rejected or unfinished one is allowed.
 * GET /api/ekyc -> { status, url, supplement } of the newest session; 404 when none.
 * POST /api/ekyc/status -> { status }: the status number (src/domain/ekyc.ts: 1, 2, 4, 8, 9)
 *   of the newest session, with 4 (approved) also its { supplement } flag as GET /api/ekyc has
 *   it; while it is 1 or 2 the provider is asked too (readStatus), so a lost callback delays
 *   nothing. 404 when no session was started. With 9 (rejected) because the card's data differ
 *   from the entry (the OpenID Connect check, ADR 0035) also
 *   { reason: 'mismatch', fields: ['name' | 'birthday' | 'address', …] }: which items, no values.
 * POST /api/ekyc/callback: the provider's signed callback (ekyc/adapter.ts: X-Ekyc-Timestamp,
 *   X-Ekyc-Signature over the raw body). 200 {} when recorded (or already so), 401 for a
 *   bad signature or time, 400 for a malformed body, 404 for an unknown session.
 */

const returnPaths: Record<ApplicationType, string> = { GENERAL: '/ekyc-callback', CHILD: '/child/ekyc-callback' };

/**
 * Where the provider sends the browser back: in production the bank's own https origin
 * (bank.json DOMAIN), never something taken from the request; in development the origin the
 * page was loaded from (0177.localhost:3000, a LAN address…).
 */
function originOf(request: FastifyRequest): string {
  const bank = request.bank;
  if (request.server.config.production && bank) return `https://${bank.DOMAIN}`;
  return `${request.protocol}://${request.host}`;
}

const startSchema = {
  type: 'object',
  properties: {
    supplement: { type: 'boolean', const: false },
    applicationType: { type: 'string', enum: applicationTypes },
    method: { type: 'string', enum: providerMethods },
  },
};

const conflict = (reply: FastifyReply, message: string) => reply.code(409).send({ message });

const ekycRoutes: FastifyPluginAsync = async (app) => {
  app.post<{ Body: { supplement?: boolean; applicationType?: ApplicationType; method?: ProviderMethod } }>(
    '/ekyc',
    { onRequest: requireApplicationWithEkyc, preValidation: validateBody(startSchema) },
    async (request, reply) => {
      const { id, applicationType, bankCode, pinSet } = applicationOf(request);
      if (request.body.applicationType !== undefined && request.body.applicationType !== applicationType) {
        return reply.code(400).send({ message: messages.badRequest });
      }
      // What the checks below read came with the session check, in its one statement; they answer in the same order as ever.
      const ekyc = ekycStateOfRequest(request);
      if (ekyc.applicationNumber) return conflict(reply, httpMessages.applicationCompleted);
      if (!pinSet) return conflict(reply, httpMessages.pinNotSet);
      if (ekyc.latest?.status === EKYC_STATUS.bankerProcessing) return conflict(reply, httpMessages.ekycApproved);
      if (ekyc.attempts >= EKYC_MAX_ATTEMPTS) return conflict(reply, httpMessages.ekycTooManyAttempts);
      if (applicationType === 'CHILD' && !hasChildDocuments(await documentTypes(app.db, id))) {
        return conflict(reply, httpMessages.documentsMissing);
      }

      const bank = app.banks.get(bankCode);
      const offered = bank ? providerMethodsOffered(app, bank) : [];
      const method = request.body.method ?? offered[0];
      const provider = method && offered.includes(method) ? app.ekyc.forMethod(method) : undefined;
      if (!provider) return conflict(reply, httpMessages.ekycMethodNotOffered);
      // The child's part of the check is its document images: no longer lawful once they are not offered.
      if (applicationType === 'CHILD' && !childDocumentImagesOffered(app, bank)) return conflict(reply, httpMessages.ekycMethodNotOffered);

      const session = await provider.createSession({
        applicationId: id,
        applicationType,
        returnUrl: `${originOf(request)}${returnPaths[applicationType]}`,
      });
      await insertEkycSession(app.db, { applicationId: id, applicationType, provider: provider.name, providerSessionId: session.sessionId, url: session.url }, app.now());
      return { url: session.url };
    },
  );

  app.get('/ekyc', { onRequest: requireApplicationWithEkyc }, async (request, reply) => {
    const { latest } = ekycStateOfRequest(request);
    if (!latest) return reply.code(404).send({ message: httpMessages.ekycNotStarted });
    return { status: latest.status, url: latest.url, supplement: latest.supplement };
  });

  app.post('/ekyc/status', { onRequest: requireApplicationWithEkyc }, async (request, reply) => {
    const { id } = applicationOf(request);
    let latest = ekycStateOfRequest(request).latest;
    if (!latest) return reply.code(404).send({ message: httpMessages.ekycNotStarted });
    const provider = app.ekyc.named(latest.provider);
    if (isEkycPending(latest.status) && provider) {
      try {
        const reported = await provider.readStatus(latest.providerSessionId);
        if ((await applyProviderStatus(app.db, provider, latest.providerSessionId, reported, app.now())) === 'updated') {
          latest = (await latestEkycSession(app.db, id)) ?? latest;
        }
      } catch (error) {
        // The provider is unreachable: answer what we know; the page polls again.
        request.log.warn({ err: error }, 'eKYC provider status read failed');
      }
    }
    // A rejection the applicant can act on (the card's data differ from the entry) says why.
    const refusal = latest.status === EKYC_STATUS.rejected && provider ? await provider.refusal?.(latest.providerSessionId) : null;
    // Approved: where the page goes next depends on it, so the page need not ask GET /api/ekyc.
    const approved = latest.status === EKYC_STATUS.bankerProcessing ? { supplement: latest.supplement } : null;
    return { status: latest.status, ...refusal, ...approved };
  });

  // The photo-ID provider's signed callbacks (the OpenID provider answers through the browser).
  const signedCallbacks = app.ekyc.forMethod(VERIFICATION_METHODS.IMAGE_SELFIE_PHOTO_ID);
  if (!signedCallbacks) throw new Error('the photo-ID provider is missing');
  // The provider's callback needs the body exactly as sent (the signature is over the bytes),
  // so this scope parses every content type into a Buffer instead of JSON.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 16 * 1024 }, (_request, body, done) => done(null, body));
    scope.post('/ekyc/callback', async (request, reply) => {
      const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      try {
        const result = await receiveCallback({ db: app.db, provider: signedCallbacks, now: () => app.now() }, request.headers, rawBody);
        if (result === 'unknown') return reply.code(404).send({ message: httpMessages.notFound });
        return {};
      } catch (error) {
        if (!(error instanceof EkycCallbackError)) throw error;
        request.log.warn({ reason: error.message }, 'eKYC callback refused');
        const message = error.statusCode === 401 ? httpMessages.ekycCallbackRefused : messages.badRequest;
        return reply.code(error.statusCode).send({ message });
      }
    });
  });
};

export default ekycRoutes;
