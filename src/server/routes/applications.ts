import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { applicationParents } from '../db/schema.js';
import { storedAnswersOf } from '../forms/answers.js';
import { applicationOf, requireApplication } from '../plugins/auth.js';

/** The parent's columns the browser receives (spec section 3 'Parent (applicationParent)', plus occupationId). */
const visibleParent = {
  lastName: applicationParents.lastName,
  firstName: applicationParents.firstName,
  kanaLastName: applicationParents.kanaLastName,
  kanaFirstName: applicationParents.kanaFirstName,
  birthday: applicationParents.birthday,
  relationship: applicationParents.relationship,
  mobilePhoneNumber: applicationParents.mobilePhoneNumber,
  phoneNumber: applicationParents.phoneNumber,
  proxyApplicationReason: applicationParents.proxyApplicationReason,
  occupationId: applicationParents.occupationId,
  occupationName: applicationParents.occupationName,
  occupationOther: applicationParents.occupationOther,
  workplaceName: applicationParents.workplaceName,
  workplacePhoneNumber: applicationParents.workplacePhoneNumber,
};

/**
 * GET /api/applications: what the applicant has entered so far, to refill a step the
 * applicant goes back to and to show the confirmation page.
 *
 * `application` holds every field of spec section 3 'Application' stored by now (absent until
 * its step is saved; a stored form's fields not answered or not asked are null), plus
 * mailAddress, occupationId (to preselect the occupation) and the answers of every form of
 * the generic engine (the personal step, branchCode, branchName, sealLess, and any field a
 * product owner adds; a list of choices comma-joined, as utilizationPurpose). birthday is YYYY-MM-DD, applicationCompletedAt a Japan-time
 * ISO string. `forms` holds those answers again by form name, as the form step refills
 * them. `applicationParent` is the child flow's parent as saved by POST
 * /api/applications/personal/parent (visibleParent; the occupation and workplace fields null
 * until POST /api/applications/workplace/parent), else null.
 */
const applicationRoutes: FastifyPluginAsync = async (app) => {
  app.get('/applications', { preHandler: requireApplication }, async (request) => {
    const { id } = applicationOf(request);
    const stored = await storedAnswersOf(app.db, app.forms, id);
    if (!stored) return { application: null, applicationParent: null, forms: {} };
    const [parent] = await app.db.select(visibleParent).from(applicationParents).where(eq(applicationParents.applicationId, id)).limit(1);
    return { application: stored.application, applicationParent: parent ?? null, forms: stored.forms };
  });
};

export default applicationRoutes;
