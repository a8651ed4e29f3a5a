import general from '../../../flows/general.json';
import child from '../../../flows/child.json';
import { describeFlow, type FlowModel } from '../../domain/flow/model';
import type { FlowConfig } from '../../domain/flow/types';

/** Both flows, read once. The lint (npm run flows:check, run by the build) has already vouched for them. */
export const flowModels: FlowModel[] = [general as unknown as FlowConfig, child as unknown as FlowConfig].map(describeFlow);

export function flowOfPath(path: string): FlowModel | undefined {
  return flowModels.find((model) => model.pageByPath.has(path));
}
