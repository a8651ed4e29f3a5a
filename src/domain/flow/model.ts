import type { FlowConfig, FlowEdge, FlowPage, FlowStateConfig } from './types';

/**
 * Pure reading of a flow file: which pages it has and which page leads to which.
 * The navigation guard and the router are derived from this, never written by hand.
 */
export interface FlowModel {
  id: string;
  config: FlowConfig;
  pages: FlowPage[];
  edges: FlowEdge[];
  pageByState: Map<string, FlowPage>;
  pageByPath: Map<string, FlowPage>;
  /** Top-level state id -> path it leaves the flow for (states with meta.exitTo). */
  exits: Map<string, string>;
}

interface TransitionRef {
  /** Top-level state the transition is written in. */
  owner: string;
  /** Ids of the state nodes from the owner down to the node holding the transition. */
  nodePath: string[];
  event: string;
  target: string;
}

function targetsOf(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(targetsOf);
  if (typeof value === 'object' && 'target' in value) return targetsOf((value as { target: unknown }).target);
  return [];
}

/** Every transition written anywhere under a top-level state, with the event that takes it. */
export function collectTransitions(owner: string, node: FlowStateConfig, nodePath: string[] = [owner]): TransitionRef[] {
  const found: TransitionRef[] = [];
  const add = (event: string, value: unknown) => {
    for (const target of targetsOf(value)) found.push({ owner, nodePath, event, target });
  };
  for (const [event, value] of Object.entries(node.on ?? {})) add(event, value);
  add('always', node.always);
  const invokes = Array.isArray(node.invoke) ? node.invoke : node.invoke ? [node.invoke] : [];
  for (const invoke of invokes as Array<Record<string, unknown>>) {
    add(`done.${String(invoke.src)}`, invoke.onDone);
    add(`error.${String(invoke.src)}`, invoke.onError);
  }
  for (const [childId, child] of Object.entries(node.states ?? {})) {
    found.push(...collectTransitions(owner, child, [...nodePath, childId]));
  }
  return found;
}

/**
 * Resolves a transition target to the top-level state it lands in, or undefined when it stays
 * inside the owner's own sub-states (a step within one page, such as the e-mail code step).
 */
export function resolveTopLevelTarget(config: FlowConfig, ref: TransitionRef): string | undefined {
  const { target, nodePath } = ref;
  if (target.startsWith('#')) {
    const [machineId, topLevel] = target.slice(1).split('.');
    if (machineId !== config.id || topLevel === undefined) return undefined;
    return topLevel;
  }
  if (target.startsWith('.')) return undefined; // a child of the node itself: same page
  // A plain name is a sibling of the node holding the transition.
  if (nodePath.length === 1) return target.split('.')[0];
  return undefined;
}

export function describeFlow(config: FlowConfig): FlowModel {
  const pages: FlowPage[] = [];
  const exits = new Map<string, string>();
  for (const [stateId, state] of Object.entries(config.states)) {
    const meta = state.meta ?? {};
    if (meta.exitTo) exits.set(stateId, meta.exitTo);
    if (!meta.path || !meta.screen) continue;
    pages.push({
      flowId: config.id,
      stateId,
      path: meta.path,
      screen: meta.screen,
      step: meta.step,
      form: meta.form,
      entry: meta.entry === true,
      title: meta.title ?? '',
    });
  }
  const pageByState = new Map(pages.map((p) => [p.stateId, p]));
  const pageByPath = new Map(pages.map((p) => [p.path, p]));
  const edges: FlowEdge[] = [];
  for (const [stateId, state] of Object.entries(config.states)) {
    const from = pageByState.get(stateId);
    if (!from) continue;
    for (const ref of collectTransitions(stateId, state)) {
      const top = resolveTopLevelTarget(config, ref);
      if (top === undefined || top === stateId) continue;
      const to = pageByState.get(top)?.path ?? exits.get(top);
      if (to) edges.push({ from: from.path, to, event: ref.event });
    }
  }
  return { id: config.id, config, pages, edges, pageByState, pageByPath, exits };
}

/**
 * The navigation guard of the spec: a page opens when it is an entry page, or when the
 * previous path recorded in the navigation state has a transition into it (in any flow,
 * so that a flow may hand over to another one through an exit state).
 */
export function isArrivalAllowed(models: FlowModel[], toPath: string, fromPath: string | undefined): boolean {
  const page = models.map((m) => m.pageByPath.get(toPath)).find((p) => p !== undefined);
  if (!page) return false;
  if (page.entry) return true;
  if (!fromPath) return false;
  return models.some((m) => m.edges.some((e) => e.from === fromPath && e.to === toPath));
}

/** The page an event sends the applicant to from a page, if the flow has that transition. */
export function pageAfter(model: FlowModel, fromPath: string, event: string): FlowPage | undefined {
  const edge = model.edges.find((e) => e.from === fromPath && e.event === event);
  return edge ? model.pageByPath.get(edge.to) : undefined;
}

/** Path of the flow's system error page (a 401 adds ?id=1). */
export function errorPathOf(model: FlowModel): string {
  return model.pageByState.get(model.config.meta.errorState)?.path ?? '/error';
}
