import type { FastifyPluginAsync } from 'fastify';
import { requireApplicationRecordingActivity } from '../plugins/auth.js';

/**
 * POST /api/session/extend -> 204: the applicant chose 「延長する」 in the page's warning that the
 * session is about to end (WCAG 2.2.1). requireApplicationRecordingActivity records the
 * activity whatever its recorded age, which is all an extension is: the session then lasts
 * SESSION_IDLE_MS from now, and never beyond its 12 hours. A session already ended answers 401 like every other call.
 */
const sessionRoutes: FastifyPluginAsync = async (app) => {
  app.post('/session/extend', { onRequest: requireApplicationRecordingActivity }, async (_request, reply) => reply.code(204).send());
};

export default sessionRoutes;
