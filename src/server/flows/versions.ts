import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { describeFlow } from '../../domain/flow/model.js';
import type { FlowConfig, VersionedFlow } from '../../domain/flow/types.js';
import type { Database } from '../db/index.js';
import { qualified } from '../db/qualified.js';
import { applications, flowVersions, type ApplicationType } from '../db/schema.js';
import type { FormCatalogue } from '../forms/catalogue.js';
import { requiredFormsOf } from '../forms/stored.js';

/**
 * The flow versions a server process serves (issue 14, ADR 0031). An application runs the
 * version of its flow it was created with (applications.flow_version); the definitions of the
 * versions still run by some application live in the database (flow_versions, migration 0019),
 * so a restart on an edited FLOWS_DIR, or another process on another FLOWS_DIR, leaves every
 * applicant on the flow they started. Everything the server derives from a flow for an
 * application (the forms it may post, what completion waits for) comes from its own version.
 *
 * Upkeep (`maintain`), at start and then at most every MAINTENANCE_INTERVAL_MS, when a new
 * application is created: the process's own versions are written with a lease of LEASE_MS
 * (the lease keeps a version served to new applicants, but not yet run by any, from being
 * dropped by another process), applications from before migration 0019 get the version the
 * process starts with, and versions whose lease has ended and that no running application
 * uses are deleted.
 */

/** How long a version stays after the last process serving it to new applicants renewed it. */
export const LEASE_MS = 60 * 60_000;
/** How often a process renews its leases and drops unused versions (when it creates an application). */
export const MAINTENANCE_INTERVAL_MS = 10 * 60_000;

/** A flow version as the server uses it for the applications that run it. */
export interface FlowVersion {
  version: string;
  applicationType: ApplicationType;
  flow: FlowConfig;
  /** Every form its pages ask (a form step of another version is not found for its applicants). */
  forms: ReadonlySet<string>;
  /** What completion waits for: the forms before the PIN (forms/stored.ts). */
  requiredForms: readonly string[];
}

/** What an application's version is read from (request.application, or its row). */
export interface RunsFlow {
  applicationType: ApplicationType;
  /** null only for an application created before migration 0019 by a process that has not run upkeep since. */
  flowVersion: string | null;
}

/**
 * An application still running its version: not completed. An unfinished one may be resumed
 * until its bank's retention deletes it (resume/applications.ts, purgeExpired), so it keeps its
 * version as long as it exists. The one definition of "still has applicants".
 */
const stillRunning = () =>
  sql`exists (select 1 from ${applications}
    where ${qualified(applications.flowVersion)} = ${qualified(flowVersions.version)}
      and ${qualified(applications.applicationNumber)} is null)`;

export class FlowVersions {
  private readonly known = new Map<string, FlowVersion>();
  private readonly served = new Map<ApplicationType, FlowVersion>();
  private nextMaintenance = 0;

  constructor(
    private readonly db: Database,
    private readonly catalogue: FormCatalogue,
    private readonly now: () => Date,
    flows: readonly VersionedFlow[],
  ) {
    for (const flow of flows) {
      const read = this.read(flow);
      this.served.set(read.applicationType, read);
    }
  }

  /** The versions this process serves to new applicants (FLOWS_DIR's). */
  current(): FlowVersion[] {
    return [...this.served.values()];
  }

  /**
   * The version a new application of `applicationType` gets: the one its page runs (`started`,
   * when the page was loaded before a restart on an edited flow) if it is still kept, else the
   * one this process serves. Runs the upkeep first when it is due.
   */
  async forNewApplication(applicationType: ApplicationType, started?: string): Promise<FlowVersion> {
    if (this.now().getTime() >= this.nextMaintenance) await this.maintain();
    const served = this.servedFor(applicationType);
    if (started === undefined || started === served.version) return served;
    // From the database, not this process's copies: another process may have dropped it.
    const kept = await this.stored(started);
    return kept?.applicationType === applicationType ? kept : served;
  }

  /**
   * The version an application runs, read from the database when this process has not met it;
   * undefined once the version is dropped, which happens only after the application stopped
   * running (completed, or its session ended).
   */
  async of(application: RunsFlow): Promise<FlowVersion | undefined> {
    if (application.flowVersion === null) return this.servedFor(application.applicationType);
    return this.find(application.flowVersion);
  }

  /** A kept version by its hash (the public route hands its definition to the page). */
  async find(version: string): Promise<FlowVersion | undefined> {
    return this.known.get(version) ?? this.stored(version);
  }

  private async stored(version: string): Promise<FlowVersion | undefined> {
    const [row] = await this.db
      .select({ definition: flowVersions.definition })
      .from(flowVersions)
      .where(eq(flowVersions.version, version));
    return row ? this.read({ version, flow: row.definition as FlowConfig }) : undefined;
  }

  /**
   * Renews the leases of this process's versions, gives applications from before versions the
   * served one, and drops what no one runs. Returns the versions dropped.
   */
  async maintain(): Promise<string[]> {
    const now = this.now();
    this.nextMaintenance = now.getTime() + MAINTENANCE_INTERVAL_MS;
    const servedUntil = new Date(now.getTime() + LEASE_MS);
    const current = this.current();
    if (current.length === 0) return [];
    await this.db
      .insert(flowVersions)
      .values(current.map(({ version, applicationType, flow }) => ({ version, applicationType, definition: flow, servedUntil })))
      .onConflictDoUpdate({ target: flowVersions.version, set: { servedUntil: sql`greatest(${flowVersions.servedUntil}, excluded.served_until)` } });
    for (const { version, applicationType } of current) {
      await this.db
        .update(applications)
        .set({ flowVersion: version })
        .where(and(isNull(applications.flowVersion), eq(applications.applicationType, applicationType), isNull(applications.applicationNumber)));
    }
    const dropped = await this.db
      .delete(flowVersions)
      .where(and(lt(flowVersions.servedUntil, now), sql`not ${stillRunning()}`))
      .returning({ version: flowVersions.version });
    for (const { version } of dropped) this.known.delete(version);
    return dropped.map(({ version }) => version);
  }

  /**
   * Reads every version kept in the database once, and says why each one that cannot serve its
   * applicants cannot (a form it asks is gone from SCHEMAS_DIR): for the start's log, which
   * names the version, so the operator can restore the schema. Those applicants' requests fail
   * until then; the start does not, since the version may be kept for many applicants a while.
   */
  async readKept(): Promise<{ kept: number; problems: string[] }> {
    const rows = await this.db.select({ version: flowVersions.version, definition: flowVersions.definition }).from(flowVersions);
    const problems = rows.flatMap((row) => {
      try {
        this.read({ version: row.version, flow: row.definition as FlowConfig });
        return [];
      } catch (error) {
        return [error instanceof Error ? error.message : String(error)];
      }
    });
    return { kept: rows.length, problems };
  }

  private servedFor(applicationType: ApplicationType): FlowVersion {
    const served = this.served.get(applicationType);
    if (!served) throw new Error(`FLOWS_DIR has no flow for the application type ${applicationType}`);
    return served;
  }

  private read({ version, flow }: VersionedFlow): FlowVersion {
    const met = this.known.get(version);
    if (met) return met;
    let requiredForms: string[];
    try {
      requiredForms = requiredFormsOf(flow, this.catalogue);
    } catch (error) {
      throw new Error(`flow version ${version.slice(0, 12)} (${flow.id}): ${error instanceof Error ? error.message : String(error)}`);
    }
    const forms = new Set(describeFlow(flow).pages.flatMap((page) => page.forms));
    const read: FlowVersion = { version, applicationType: flow.meta.applicationType, flow, forms, requiredForms };
    this.known.set(version, read);
    return read;
  }
}
