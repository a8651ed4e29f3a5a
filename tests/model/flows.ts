import { join } from 'node:path';
import type { FlowConfig } from '../../src/domain/flow/types';
import { formatProblem } from '../../src/flow-tools/lint';
import { checkFlowFiles, repositoryRoot } from '../../src/server/flows/check';
import { planFlow, type FlowPlan, type Snapshot } from './plan';
import type { ProviderMethod } from '../../src/domain/identity-check-methods';
import type { World } from './world';
import { activeStateIds, enabledEvents, topLevelStateOf, transitionTaken, type TestFlow } from './test-machine';

/**
 * The flows of a folder, linted exactly as the server lints them at start. By default the
 * folder the test server runs (E2E_FLOWS_DIR, passed to it as FLOWS_DIR), else the shipped one,
 * with the forms of `schemasDir` (default the shipped schemas/).
 */
export function loadFlows(flowsDir = process.env.E2E_FLOWS_DIR ?? join(repositoryRoot, 'flows'), schemasDir?: string): FlowConfig[] {
  const { problems, flows } = checkFlowFiles([], repositoryRoot, flowsDir, schemasDir);
  if (problems.length > 0) throw new Error(`the flows in ${flowsDir} do not pass the lint:\n${problems.map(formatProblem).join('\n')}`);
  return flows;
}

/** The plans of the flows, each flow's journeys starting at another bank, so that every bank runs journeys of every flow. */
export function planFlows(flows: FlowConfig[]): FlowPlan[] {
  return flows.map((flow, index) => planFlow(flow, index));
}

/** What the screen shows in a state of a test machine. */
export type ScreenExpectation =
  | {
      kind: 'page';
      path: string;
      /** The page heading (meta.title), also in the document title. */
      title: string;
      /** The step bar's text, "ステップ 3/7", or null for a page without one. */
      step: string | null;
      /** False for a state the app leaves by itself (an invoked actor's answer): seen, perhaps only briefly. */
      stable: boolean;
    }
  /** At the identity provider's page of the method started last (the simulator, the OpenID stand-in), outside the app. */
  | { kind: 'provider'; method: ProviderMethod };

/** The step bar's text as src/client/ui/Layout.tsx renders it. */
export function stepText(step: number | undefined, totalSteps: number): string | null {
  return step === undefined ? null : `ステップ ${step}/${totalSteps}`;
}

function pageOf(flows: FlowConfig[], path: string): { title: string; step: string | null } | undefined {
  for (const flow of flows) {
    for (const state of Object.values(flow.states)) {
      if (state.meta?.path === path) return { title: state.meta.title ?? '', step: stepText(state.meta.step, flow.meta.totalSteps) };
    }
  }
  return undefined;
}

export function expectationOf(testFlow: TestFlow, flows: FlowConfig[], snapshot: Snapshot): ScreenExpectation {
  const { flow } = testFlow;
  const active = activeStateIds(flow.id, snapshot.value);
  if (active.some((id) => testFlow.handOver.includes(id))) {
    const { method } = snapshot.context as World;
    if (method === null) throw new Error(`${flow.id}: at the identity provider with no identity check started`);
    return { kind: 'provider', method };
  }
  const top = topLevelStateOf(snapshot);
  const meta = flow.states[top]?.meta ?? {};
  const stable =
    snapshot.status !== 'active' ||
    enabledEvents(testFlow, snapshot).some((event) => {
      const kind = transitionTaken(testFlow, snapshot, event)?.kind;
      return kind === 'user' || kind === 'provider';
    });
  if (meta.path) return { kind: 'page', path: meta.path, title: meta.title ?? '', step: stepText(meta.step, flow.meta.totalSteps), stable };
  if (meta.exitTo) {
    // A final state that leaves for a page of another flow (or this one's error page).
    const page = pageOf(flows, meta.exitTo);
    return { kind: 'page', path: meta.exitTo, title: page?.title ?? '', step: page?.step ?? null, stable: true };
  }
  throw new Error(`${flow.id}.${top} has neither meta.path nor meta.exitTo: the test cannot tell what the screen shows`);
}

