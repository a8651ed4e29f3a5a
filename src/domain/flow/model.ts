import { escapePointerSegment } from '../json-pointer';
import type { FlowConfig, FlowEdge, FlowPage } from './types';

/**
 * The one reader of a flow file (flows/*.json). It reads the JSON as a statechart: a tree of
 * state nodes, their transitions and invoked actors, with targets resolved the way XState
 * resolves them. Everything else is derived from this reading: the pages and the page edges the
 * runtime, the router and the navigation guard use (describeFlow below), and in src/flow-tools the
 * lint, the diagram and the generated test journeys. So the reader that runs for applicants is
 * the one the lint vouches for and the model tests exercise.
 *
 * Pure (no fs, no node APIs). Meant for a flow that passed flows/flow.schema.json, but it never
 * throws on anything else: what it cannot read it leaves out.
 */
export type Json = Record<string, unknown>;

export interface StateNode {
  /** State keys from the root ([] for the root). */
  path: string[];
  /** JSON pointer of the state's object in the file ("" for the root). */
  pointer: string;
  config: Json;
  parent: StateNode | undefined;
  children: Map<string, StateNode>;
}

/** A name written in the file (target, guard, action) and where. */
export interface NamedRef {
  value: string;
  pointer: string;
}

export interface Transition {
  node: StateNode;
  /** Event name; "always", or "done.<src>" / "error.<src>" for an invoked actor's result. */
  event: string;
  /** Pointer of the transition (the event key for a plain string; the item for a list). */
  pointer: string;
  /** Set for the result of an invoked actor. */
  invoke?: { src: string; outcome: 'done' | 'error' };
  target?: NamedRef;
  guard?: NamedRef;
  actions: NamedRef[];
}

export interface Invoke {
  src: string;
  config: Json;
  pointer: string;
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function buildTree(config: Json): StateNode {
  const build = (cfg: Json, path: string[], pointer: string, parent: StateNode | undefined): StateNode => {
    const node: StateNode = { path, pointer, config: cfg, parent, children: new Map() };
    const states = cfg.states;
    if (isObject(states)) {
      for (const [key, child] of Object.entries(states)) {
        if (isObject(child)) node.children.set(key, build(child, [...path, key], `${pointer}/states/${escapePointerSegment(key)}`, node));
      }
    }
    return node;
  };
  return build(config, [], '', undefined);
}

/** The node and all its descendants, parents before children, in file order. */
export function allNodes(root: StateNode): StateNode[] {
  const out: StateNode[] = [];
  const visit = (n: StateNode) => {
    out.push(n);
    for (const c of n.children.values()) visit(c);
  };
  visit(root);
  return out;
}

/** Action or guard references: "name", {"type": "name"} or a list of them. */
export function refsOf(value: unknown, pointer: string): NamedRef[] {
  if (typeof value === 'string') return [{ value, pointer }];
  if (Array.isArray(value)) return value.flatMap((v, i) => refsOf(v, `${pointer}/${i}`));
  if (isObject(value) && typeof value.type === 'string') return [{ value: value.type, pointer: `${pointer}/type` }];
  return [];
}

function transitionsOf(node: StateNode, event: string, value: unknown, pointer: string, invoke?: Transition['invoke']): Transition[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => transitionsOf(node, event, v, `${pointer}/${i}`, invoke));
  const base = invoke ? { node, event, pointer, invoke } : { node, event, pointer };
  if (typeof value === 'string') return [{ ...base, target: { value, pointer }, actions: [] }];
  if (!isObject(value)) return [];
  const t: Transition = { ...base, actions: refsOf(value.actions, `${pointer}/actions`) };
  if (typeof value.target === 'string') t.target = { value: value.target, pointer: `${pointer}/target` };
  const guard = refsOf(value.guard, `${pointer}/guard`)[0];
  if (guard) t.guard = guard;
  return [t];
}

export function invokesOf(node: StateNode): Invoke[] {
  const invoke = node.config.invoke;
  const base = `${node.pointer}/invoke`;
  const one = (config: Json, pointer: string): Invoke => ({ src: String(config.src), config, pointer });
  if (Array.isArray(invoke)) return invoke.flatMap((v, i) => (isObject(v) ? [one(v, `${base}/${i}`)] : []));
  return isObject(invoke) ? [one(invoke, base)] : [];
}

/** The transitions written on this node (not its children), in file order: on, always, then invoke results. */
export function nodeTransitions(node: StateNode): Transition[] {
  const found: Transition[] = [];
  const on = node.config.on;
  if (isObject(on)) {
    for (const [event, value] of Object.entries(on)) found.push(...transitionsOf(node, event, value, `${node.pointer}/on/${escapePointerSegment(event)}`));
  }
  if (node.config.always !== undefined) found.push(...transitionsOf(node, 'always', node.config.always, `${node.pointer}/always`));
  for (const { src, config, pointer } of invokesOf(node)) {
    found.push(...transitionsOf(node, `done.${src}`, config.onDone, `${pointer}/onDone`, { src, outcome: 'done' }));
    found.push(...transitionsOf(node, `error.${src}`, config.onError, `${pointer}/onError`, { src, outcome: 'error' }));
  }
  return found;
}

export function metaOf(node: StateNode): Json {
  return isObject(node.config.meta) ? node.config.meta : {};
}

/** meta.form as a list: one name, several, or none. */
export function formsOf(form: unknown): string[] {
  if (typeof form === 'string') return [form];
  return Array.isArray(form) ? form.filter((name): name is string => typeof name === 'string') : [];
}

export function stringMeta(node: StateNode, key: string): string | undefined {
  const v = metaOf(node)[key];
  return typeof v === 'string' ? v : undefined;
}

export function stepOf(node: StateNode): number | undefined {
  const v = metaOf(node).step;
  return typeof v === 'number' ? v : undefined;
}

/** The top-level state a node belongs to (the node itself when it is one). */
export function topLevelOf(node: StateNode): StateNode {
  let n = node;
  while (n.parent && n.parent.parent) n = n.parent;
  return n;
}

/** A top-level state with meta.path: a page of the app. */
export function isPage(node: StateNode): boolean {
  return node.parent !== undefined && node.parent.parent === undefined && stringMeta(node, 'path') !== undefined;
}

export type TargetResolution =
  | { node: StateNode }
  /** "#other.x": the id is not this flow's. */
  | { error: 'other-flow'; referredId: string; flowId: string }
  /** "#flow" with no state after the id. */
  | { error: 'no-state'; flowId: string }
  /** A name that is not a child of `at`. */
  | { error: 'missing'; at: StateNode; name: string };

/**
 * XState's reading of a target, relative to the node holding the transition:
 * "#<machineId>.a.b" from the root, ".a.b" from the node itself, "a.b" from the node's parent.
 */
export function resolveTarget(root: StateNode, from: StateNode, target: string): TargetResolution {
  let base: StateNode;
  let rest: string;
  if (target.startsWith('#')) {
    const [id = '', ...names] = target.slice(1).split('.');
    const flowId = String(root.config.id);
    if (id !== flowId) return { error: 'other-flow', referredId: id, flowId };
    if (names.length === 0) return { error: 'no-state', flowId };
    base = root;
    rest = names.join('.');
  } else if (target.startsWith('.')) {
    base = from;
    rest = target.slice(1);
  } else {
    base = from.parent ?? root;
    rest = target;
  }
  let node = base;
  for (const name of rest.split('.')) {
    const next = node.children.get(name);
    if (!next) return { error: 'missing', at: node, name };
    node = next;
  }
  return { node };
}

/** Every transition of the flow whose target resolves, with the state it enters. */
export function resolvedTransitions(root: StateNode): Array<{ transition: Transition; target: StateNode }> {
  const out: Array<{ transition: Transition; target: StateNode }> = [];
  for (const node of allNodes(root)) {
    for (const transition of nodeTransitions(node)) {
      if (!transition.target) continue;
      const r = resolveTarget(root, node, transition.target.value);
      if ('node' in r) out.push({ transition, target: r.node });
    }
  }
  return out;
}

/**
 * What the runtime needs of a flow: which pages it has and which page leads to which.
 * The navigation guard and the router are derived from this, never written by hand.
 */
export interface FlowModel {
  id: string;
  /** The flow's version (a hash the server computes), when the reader was given it: the page's flows carry theirs. */
  version?: string;
  config: FlowConfig;
  /** The flow read as a statechart (the root node's children are the top-level states). */
  root: StateNode;
  pages: FlowPage[];
  edges: FlowEdge[];
  pageByState: Map<string, FlowPage>;
  pageByPath: Map<string, FlowPage>;
  /** Top-level state id -> path it leaves the flow for (states with meta.exitTo). */
  exits: Map<string, string>;
}

export function describeFlow(config: FlowConfig, version?: string): FlowModel {
  const root = buildTree(config as unknown as Json);
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
      form: formsOf(meta.form)[0],
      forms: formsOf(meta.form),
      entry: meta.entry === true,
      title: meta.title ?? '',
    });
  }
  const pageByState = new Map(pages.map((p) => [p.stateId, p]));
  const pageByPath = new Map(pages.map((p) => [p.path, p]));
  // A transition that leaves its page, written anywhere under it, is an edge to the page (or the
  // exit) it enters; one that stays inside the page (a step within it) is none.
  const edges: FlowEdge[] = [];
  for (const { transition, target } of resolvedTransitions(root)) {
    const fromState = topLevelOf(transition.node);
    const toState = topLevelOf(target);
    if (fromState === root || fromState === toState) continue;
    const from = pageByState.get(fromState.path[0] ?? '');
    const toId = toState.path[0] ?? '';
    const to = pageByState.get(toId)?.path ?? exits.get(toId);
    if (from && to) edges.push({ from: from.path, to, event: transition.event });
  }
  return { id: config.id, ...(version === undefined ? {} : { version }), config, root, pages, edges, pageByState, pageByPath, exits };
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
