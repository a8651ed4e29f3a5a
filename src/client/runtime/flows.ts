import { describeFlow, type FlowModel } from '../../domain/flow/model';
import type { VersionedFlow } from '../../domain/flow/types';

import { PAGE_DATA_IDS } from '../../domain/page-data';

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

/** The runtime's reading of each flow, its version kept beside it. */
export function modelsOf(flows: readonly VersionedFlow[]): FlowModel[] {
  return flows.map(({ version, flow }) => describeFlow(flow, version));
}
