import { and, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import { describeFlow, type FlowModel } from '../../domain/flow/model.js';
import { furthestStep } from '../../domain/flow/resume.js';
import type { FlowConfig, FlowPage, VersionedFlow } from '../../domain/flow/types.js';
import type { Database } from '../db/index.js';
import { applications, authTokens, flowVersions } from '../db/schema.js';
import { factColumns, factsOf } from '../resume/applications.js';

/**
 * Applicants a flow edit strands (issue 14, ADR 0032): unfinished applications on an older kept
 * version of a served flow whose current step (furthestStep of their own version) is a state
 * the served flow no longer has. They finish on their version (ADR 0031) unless the served
 * flow's meta.movedStates maps that state: then the start moves them onto the served version.
 * One report for the server's start and for `npm run operator -- flows impact`.
 */

export interface StrandedGroup {
  /** The served flow whose edit removed the state. */
  served: VersionedFlow;
  /** The older version the applicants run, and the state (page) they are at in it. */
  version: string;
  page: FlowPage;
  applicationIds: string[];
  /** The state of the served flow meta.movedStates maps this one to, if any. */
  movedTo: FlowPage | undefined;
}

/** Lock of the moves, so two processes starting at once move each application once. */
const MOVE_LOCK = 720_032;

/** Every unfinished application on another kept version of a served flow's type, at a state the served flow removed. */
export async function strandedApplicants(db: Database, served: readonly VersionedFlow[]): Promise<StrandedGroup[]> {
  const kept = new Map((await db.select({ version: flowVersions.version, definition: flowVersions.definition }).from(flowVersions)).map((row) => [row.version, row.definition as FlowConfig]));
  const models = new Map<string, FlowModel>();
  const modelOf = (version: string) => {
    const definition = kept.get(version);
    if (definition && !models.has(version)) models.set(version, describeFlow(definition));
    return models.get(version);
  };
  const groups: StrandedGroup[] = [];
  for (const current of served) {
    const { flow } = current;
    const servedModel = describeFlow(flow);
    const rows = await db
      .select({ id: applications.id, version: applications.flowVersion, ...factColumns })
      .from(applications)
      .where(
        and(
          eq(applications.applicationType, flow.meta.applicationType),
          isNull(applications.applicationNumber),
          isNotNull(applications.flowVersion),
          ne(applications.flowVersion, current.version),
        ),
      );
    const byState = new Map<string, StrandedGroup>();
    for (const row of rows) {
      const model = row.version === null ? undefined : modelOf(row.version);
      const page = model && furthestStep(model, factsOf(row));
      if (!page || !row.version || page.stateId in flow.states) continue;
      const key = `${row.version} ${page.stateId}`;
      const mapped = flow.meta.movedStates?.[page.stateId];
      const group = byState.get(key) ?? { served: current, version: row.version, page, applicationIds: [], movedTo: mapped === undefined ? undefined : servedModel.pageByState.get(mapped) };
      group.applicationIds.push(row.id);
      byState.set(key, group);
    }
    groups.push(...[...byState.values()].sort((a, b) => a.version.localeCompare(b.version) || a.page.stateId.localeCompare(b.page.stateId)));
  }
  return groups;
}

const short = (version: string) => version.slice(0, 12);
const at = (page: FlowPage) => `"${page.stateId}" (${page.path})`;
const applicants = (n: number) => `${n} applicant${n === 1 ? ' is' : 's are'}`;

/**
 * One line per group for the product owner and the operator: where the applicants are, and
 * what happens to them (`moved` when the start has just moved them).
 */
export function impactLine(group: StrandedGroup, moved?: number): string {
  const { served, version, page, applicationIds, movedTo } = group;
  const head = `flow "${served.flow.id}" (version ${short(served.version)}): `;
  if (moved !== undefined && movedTo) return `${head}moved ${moved} applicant${moved === 1 ? '' : 's'} at ${at(page)} on version ${short(version)} onto this version, to go on at ${at(movedTo)} ("movedStates")`;
  const where = `${applicants(applicationIds.length)} at ${at(page)} on version ${short(version)}, a state this flow removed`;
  if (movedTo) return `${head}${where}: "movedStates" moves them onto this version at ${at(movedTo)} when a server starts on this flow`;
  return `${head}${where}: they finish on their version; to move them onto this one, add "movedStates": { "${page.stateId}": "<state>" }`;
}

/** The report of `npm run operator -- flows impact`: a line per group, or that nobody is stranded. */
export function impactReport(groups: readonly StrandedGroup[], served: readonly VersionedFlow[]): string[] {
  if (groups.length > 0) return groups.map((group) => impactLine(group));
  return [`no applicant is at a state the served flows removed (${served.map(({ flow, version }) => `${flow.id} ${short(version)}`).join(', ')})`];
}

/**
 * Moves the applicants at a state mapped by meta.movedStates onto the served version, under an
 * advisory lock: idempotent (a moved application runs the served version and is not found
 * again) and safe with several processes. Their sessions end: a page still open runs the old
 * version (the page keeps the version its sign-in answered), so the applicant comes back by
 * resume, which answers the new one. Returns every stranded group with how many were moved
 * (0 for the unmapped).
 */
export async function moveStranded(db: Database, served: readonly VersionedFlow[]): Promise<Array<{ group: StrandedGroup; moved: number }>> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${MOVE_LOCK})`);
    const groups = await strandedApplicants(tx, served);
    const result: Array<{ group: StrandedGroup; moved: number }> = [];
    for (const group of groups) {
      if (!group.movedTo) {
        result.push({ group, moved: 0 });
        continue;
      }
      const moved = await tx
        .update(applications)
        .set({ flowVersion: group.served.version })
        .where(and(inArray(applications.id, group.applicationIds), eq(applications.flowVersion, group.version), isNull(applications.applicationNumber)))
        .returning({ id: applications.id });
      if (moved.length > 0) await tx.delete(authTokens).where(inArray(authTokens.applicationId, moved.map(({ id }) => id)));
      result.push({ group, moved: moved.length });
    }
    return result;
  });
}
