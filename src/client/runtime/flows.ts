import { describeFlow, type FlowModel } from '../../domain/flow/model';
import type { VersionedFlow } from '../../domain/flow/types';
import { PAGE_DATA_IDS } from '../../domain/page-data';
import { api } from '../api/client';
import { session } from '../platform/session';

export const CLIENT_FLOWS_ELEMENT_ID = PAGE_DATA_IDS.flows;

/**
 * The flows the server linted at start (FLOWS_DIR), with their versions, written into the page
 * beside the settings: the routes, the navigation guard and the machines come from them, so an
 * edited flow file takes effect on a restart without rebuilding the client.
 */
export function readPageFlows(doc: Document = document): VersionedFlow[] {
  const element = doc.getElementById(CLIENT_FLOWS_ELEMENT_ID);
  if (!element?.textContent) throw new Error('the flows are missing from the page');
  return JSON.parse(element.textContent) as VersionedFlow[];
}

/** A kept flow version's definition, by its hash (GET /api/flows/:version). */
export const fetchFlowVersion = (version: string): Promise<VersionedFlow> => api<VersionedFlow>(`/flows/${version}`);

/**
 * The flows this tab runs. An applicant inside an application runs the flow version it was
 * created with (kept in session storage since the e-mail check), even when the server now
 * writes an edited flow into the page: that version replaces the page's flow of its type. When
 * it cannot be had (dropped: the application has ended), the page's flows run, and the next
 * call of the ended session leads to the error page as usual.
 */
export async function flowsOfSession(
  pageFlows: VersionedFlow[],
  sessionVersion: string | null = session.get('flowVersion'),
  fetchFlow: (version: string) => Promise<VersionedFlow> = fetchFlowVersion,
): Promise<VersionedFlow[]> {
  if (!sessionVersion || pageFlows.some((flow) => flow.version === sessionVersion)) return pageFlows;
  try {
    const own = await fetchFlow(sessionVersion);
    const type = own.flow.meta.applicationType;
    return pageFlows.map((flow) => (flow.flow.meta.applicationType === type ? own : flow));
  } catch {
    return pageFlows;
  }
}

/** The runtime's reading of each flow, its version kept beside it. */
export function modelsOf(flows: readonly VersionedFlow[]): FlowModel[] {
  return flows.map(({ version, flow }) => describeFlow(flow, version));
}
