import { eq } from 'drizzle-orm';
import { describeFlow } from '../../domain/flow/model.js';
import type { FlowConfig } from '../../domain/flow/types.js';
import type { Database } from '../db/index.js';
import { applicationParents, applications, type ApplicationType } from '../db/schema.js';

/**
 * Which forms an application must have stored before it is handed to the bank: every form
 * its flow asks before the PIN (the flow decides, so a step moved or removed in the flow
 * JSON changes what completion waits for), and how to tell that each one is stored.
 */

/** What the stored-checks read of an application. */
export interface StoredFacts {
  birthday: string | null;
  occupationId: number | null;
  branchCode: string | null;
  sealLess: boolean | null;
  parent: { occupationId: number | null } | null;
}

/**
 * How each form's answers are stored (until the answers are one document per form). The PIN
 * has its own check, and the confirmation stores nothing (its tick is asked again on the page).
 */
const storedChecks: Record<string, (facts: StoredFacts) => boolean> = {
  personal: (facts) => facts.birthday !== null,
  workplace: (facts) => facts.occupationId !== null,
  branch: (facts) => facts.branchCode !== null,
  sealLess: (facts) => facts.sealLess !== null,
  confirmation: () => true,
  // The parent page posts the parent's personal data, then the parent's workplace.
  parent: (facts) => facts.parent !== null && facts.parent.occupationId !== null,
};

/** The form of the page whose screen sets the PIN: not a step's answers. */
const PIN_SCREEN = 'Pin';

/** The forms each application type's flow asks, but the PIN's; throws for a form the server cannot check. */
export function requiredFormsByType(flows: FlowConfig[]): Map<ApplicationType, string[]> {
  const byType = new Map<ApplicationType, string[]>();
  for (const flow of flows) {
    const forms = describeFlow(flow)
      .pages.filter((page) => page.form !== undefined && page.screen !== PIN_SCREEN)
      .map((page) => page.form as string);
    const unknown = forms.filter((form) => !Object.hasOwn(storedChecks, form));
    if (unknown.length > 0) {
      throw new Error(`flow "${flow.id}" asks the form(s) ${unknown.join(', ')}, whose answers the server does not store yet (src/server/forms/stored.ts)`);
    }
    byType.set(flow.meta.applicationType, forms);
  }
  return byType;
}

export async function storedFactsOf(db: Database, applicationId: string): Promise<StoredFacts | undefined> {
  const [row] = await db
    .select({
      birthday: applications.birthday,
      occupationId: applications.occupationId,
      branchCode: applications.branchCode,
      sealLess: applications.sealLess,
      parentOccupationId: applicationParents.occupationId,
      parentId: applicationParents.applicationId,
    })
    .from(applications)
    .leftJoin(applicationParents, eq(applicationParents.applicationId, applications.id))
    .where(eq(applications.id, applicationId))
    .limit(1);
  if (!row) return undefined;
  const { parentOccupationId, parentId, ...own } = row;
  return { ...own, parent: parentId === null ? null : { occupationId: parentOccupationId } };
}

/** The forms of `required` whose answers are not stored. */
export function missingForms(required: readonly string[], facts: StoredFacts): string[] {
  return required.filter((form) => !storedChecks[form]?.(facts));
}
