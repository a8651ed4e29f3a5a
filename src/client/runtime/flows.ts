import { describeFlow, type FlowModel } from '../../domain/flow/model';
import type { FlowConfig } from '../../domain/flow/types';

import { PAGE_DATA_IDS } from '../../domain/page-data';

export const CLIENT_FLOWS_ELEMENT_ID = PAGE_DATA_IDS.flows;

/**
 * The flows the server linted at start (FLOWS_DIR), written into the page beside the settings:
 * the routes, the navigation guard and the machines come from them, so an edited flow file
 * takes effect on a restart without rebuilding the client.
 */
export function readFlowModels(doc: Document = document): FlowModel[] {
  const element = doc.getElementById(CLIENT_FLOWS_ELEMENT_ID);
  if (!element?.textContent) throw new Error('the flows are missing from the page');
  return (JSON.parse(element.textContent) as FlowConfig[]).map(describeFlow);
}
