import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { applications } from '../db/schema.js';
import { applicationOf, requireApplication } from '../plugins/auth.js';

/**
 * GET /api/applications: what the applicant has entered so far. Later issues add the personal,
 * workplace, branch… fields and the parent of a child application.
 */
const applicationRoutes: FastifyPluginAsync = async (app) => {
  app.get('/applications', { preHandler: requireApplication }, async (request) => {
    const { id } = applicationOf(request);
    const [row] = await app.db
      .select({
        bankCode: applications.bankCode,
        applicationType: applications.applicationType,
        mailAddress: applications.mailAddress,
      })
      .from(applications)
      .where(eq(applications.id, id))
      .limit(1);
    return { application: row ?? null, applicationParent: null };
  });
};

export default applicationRoutes;
