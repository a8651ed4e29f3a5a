import type { FastifyPluginAsync } from 'fastify';
import { REVISION_HEADER } from '../../domain/revision.js';
import type { StoredAnswers } from '../forms/answers.js';
import { requireApplicationWithAnswers, storedAnswersOfRequest } from '../plugins/auth.js';

/**
 * The parent's fields the browser receives (spec section 3 'Parent (applicationParent)', plus
 * occupationId), from the forms stored into the parent's record (x-step.storedAs
 * "applicationParent": parent, parent-workplace). The rest of that record (the body's bankCode,
 * the application's own) stays on the server until it is listed here.
 */
const visibleParent = [
  'lastName',
  'firstName',
  'kanaLastName',
  'kanaFirstName',
  'birthday',
  'relationship',
  'mobilePhoneNumber',
  'phoneNumber',
  'proxyApplicationReason',
  'occupationId',
  'occupationName',
  'occupationOther',
  'workplaceName',
  'workplacePhoneNumber',
] as const;

/**
 * GET /api/applications (and every form step's answer, form-steps.ts): what the applicant has
 * entered so far, to refill a step the applicant goes back to and to show the confirmation page.
 *
 * `application` holds every field of spec section 3 'Application' stored by now (absent until
 * its step is saved; a stored form's fields not answered or not asked are null), plus
 * mailAddress, occupationId (to preselect the occupation) and the answers of every form of
 * the generic engine stored into the application (the personal step, branchCode, branchName, sealLess, and any field a
 * product owner adds; a list of choices comma-joined, as utilizationPurpose). birthday is YYYY-MM-DD, applicationCompletedAt a Japan-time
 * ISO string. `forms` holds the answers of every form again by form name, as the form step refills
 * them. `applicationParent` is the child flow's parent as saved by POST
 * /api/applications/personal/parent (visibleParent; the occupation and workplace fields null
 * until POST /api/applications/workplace/parent), else null.
 */
export function applicationsAnswerOf(stored: StoredAnswers) {
  const parent = stored.entities.applicationParent;
  const applicationParent = parent ? Object.fromEntries(visibleParent.map((name) => [name, parent[name] ?? null])) : null;
  return { application: stored.application, applicationParent, forms: stored.forms };
}

const applicationRoutes: FastifyPluginAsync = async (app) => {
  app.get('/applications', { preHandler: requireApplicationWithAnswers }, async (request, reply) => {
    const stored = storedAnswersOfRequest(request);
    // What the page read: sent back with each step, so a step from an older page is refused (ADR 0030).
    reply.header(REVISION_HEADER, String(stored.revision));
    return applicationsAnswerOf(stored);
  });
};

export default applicationRoutes;
