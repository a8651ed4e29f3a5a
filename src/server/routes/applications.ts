import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { applicationParents, applications } from '../db/schema.js';
import { applicationOf, requireApplication } from '../plugins/auth.js';
import { toJstIso } from '../time.js';

/** utilizationPurpose as stored (comma-joined) -> the list the form's checkboxes need. */
export function purposeList(joined: string | null): string[] {
  return joined ? joined.split(',').filter((value) => value !== '') : [];
}

/**
 * The columns the browser receives, named one by one: a column a later migration adds (a
 * secret, a provider's reference) stays on the server until it is listed here.
 */
const visible = {
  bankCode: applications.bankCode,
  applicationType: applications.applicationType,
  mailAddress: applications.mailAddress,
  lastName: applications.lastName,
  firstName: applications.firstName,
  kanaLastName: applications.kanaLastName,
  kanaFirstName: applications.kanaFirstName,
  gender: applications.gender,
  birthday: applications.birthday,
  eraBirthday: applications.eraBirthday,
  mobilePhoneNumber: applications.mobilePhoneNumber,
  phoneNumber: applications.phoneNumber,
  postalNumber: applications.postalNumber,
  addressCode: applications.addressCode,
  addressPrefecture: applications.addressPrefecture,
  addressMunicipality: applications.addressMunicipality,
  addressSection: applications.addressSection,
  addressChome: applications.addressChome,
  kanaAddressPrefecture: applications.kanaAddressPrefecture,
  kanaAddressMunicipality: applications.kanaAddressMunicipality,
  kanaAddressSection: applications.kanaAddressSection,
  kanaAddressChome: applications.kanaAddressChome,
  address: applications.address,
  kanaAddress: applications.kanaAddress,
  subAddress: applications.subAddress,
  kanaSubAddress: applications.kanaSubAddress,
  tempAddressPrefecture: applications.tempAddressPrefecture,
  tempAddress: applications.tempAddress,
  kanaTempAddress: applications.kanaTempAddress,
  utilizationPurpose: applications.utilizationPurpose,
  utilizationPurposeOther: applications.utilizationPurposeOther,
  distanceTransactionReason: applications.distanceTransactionReason,
  occupationId: applications.occupationId,
  occupationName: applications.occupationName,
  occupationOther: applications.occupationOther,
  workplaceId: applications.workplaceId,
  workplaceCode: applications.workplaceCode,
  workplaceName: applications.workplaceName,
  workplacePhoneNumber: applications.workplacePhoneNumber,
  invitationCode: applications.invitationCode,
  existedAccountBranchCode: applications.existedAccountBranchCode,
  existedAccountNumber: applications.existedAccountNumber,
  branchCode: applications.branchCode,
  branchName: applications.branchName,
  sealLess: applications.sealLess,
  applicationNumber: applications.applicationNumber,
  applicationCompletedAt: applications.applicationCompletedAt,
};

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
 * `application` holds every field of spec section 3 'Application' stored by now (null until
 * its step is saved), plus mailAddress, occupationId (to preselect the occupation) and
 * utilizationPurposeList (utilizationPurpose split, for the checkboxes). birthday is
 * YYYY-MM-DD, applicationCompletedAt a Japan-time ISO string. `applicationParent` is the
 * child flow's parent as saved by POST /api/applications/personal/parent (visibleParent; the
 * occupation and workplace fields null until POST /api/applications/workplace/parent), else null.
 */
const applicationRoutes: FastifyPluginAsync = async (app) => {
  app.get('/applications', { preHandler: requireApplication }, async (request) => {
    const { id } = applicationOf(request);
    const [row] = await app.db.select(visible).from(applications).where(eq(applications.id, id)).limit(1);
    if (!row) return { application: null, applicationParent: null };
    const [parent] = await app.db.select(visibleParent).from(applicationParents).where(eq(applicationParents.applicationId, id)).limit(1);
    return {
      application: {
        ...row,
        utilizationPurposeList: purposeList(row.utilizationPurpose),
        applicationCompletedAt: row.applicationCompletedAt ? toJstIso(row.applicationCompletedAt) : null,
      },
      applicationParent: parent ?? null,
    };
  });
};

export default applicationRoutes;
