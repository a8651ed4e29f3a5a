/**
 * What the meaning rules read: a schema-valid flow as the domain's reader sees it
 * (src/domain/flow/model.ts), with the facts several rules share worked out once: where each
 * transition leads, whether the graph is whole, which states are reachable, which are dead ends,
 * and the edges between pages.
 */
import { allNodes, describeFlow, metaOf, nodeTransitions, resolveTarget, topLevelOf, type Json, type StateNode, type TargetResolution, type Transition } from '../../domain/flow/model';
import type { FlowConfig } from '../../domain/flow/types';
import { handOverStates } from '../statechart';

export interface PageEdge {
  t: Transition;
  from: StateNode;
  to: StateNode;
}

export interface FlowContext {
  flow: Json;
  meta: Json;
  totalSteps: number;
  root: StateNode;
  /** Every state node, the root first, parents before children, in file order. */
  nodes: StateNode[];
  topLevel: StateNode[];
  /** Allowed meta.form values. */
  formNames: string[];
  /** Paths of the pages of the other flows, when the cross-flow checks run. */
  otherFlowPaths: string[] | undefined;
  lineOf(pointer: string): number;
  /** Every transition with a target, and how its target resolves. */
  targets: Array<{ transition: Transition; resolution: TargetResolution }>;
  /** The state each transition with a resolved target enters. */
  resolved: Map<Transition, StateNode>;
  /**
   * No broken target and no broken initial state. Until then the graph is incomplete, and what the
   * graph rules would find (unreachable states, step order, BACK) would only echo that mistake.
   */
  graphComplete: boolean;
  rootInitial: StateNode | undefined;
  reachable: Set<StateNode>;
  /** States entered with the hand-over action: the applicant leaves for the identity provider there. */
  handOvers: Set<StateNode>;
  /** Atomic states (no sub-states), the root aside. */
  leaves: StateNode[];
  /** Atomic states that are not final, not a hand-over, and have no transition with a target around them. */
  deadEnds: Set<StateNode>;
  /** Transitions that leave a top-level state for another one. */
  pageEdges: PageEdge[];
}

export const pathLabel = (n: StateNode) => `"${n.path.join('.')}"`;

/** What is wrong with a node's "initial": a name that is no sub-state, or none on a compound state. */
export function initialProblem(root: StateNode, node: StateNode): 'missing' | 'absent' | undefined {
  const initial = node.config.initial;
  if (typeof initial === 'string') return node.children.has(initial) ? undefined : 'missing';
  return node !== root && node.children.size > 0 && node.config.type !== 'parallel' ? 'absent' : undefined;
}

/** Nodes whose transitions apply while `leaf` is active: itself, its ancestors, all of a parallel ancestor. */
export function activeWith(root: StateNode, leaf: StateNode): StateNode[] {
  const active = new Set<StateNode>();
  for (let n: StateNode | undefined = leaf; n && n !== root; n = n.parent) {
    active.add(n);
    if (n.config.type === 'parallel') for (const d of allNodes(n)) active.add(d);
  }
  return [...active];
}

/**
 * Reachability, following XState's entry: entering a node enters its ancestors and its initial
 * child (all children of a parallel node). Roots: the initial state, entry pages, the error page.
 */
function reachableStates(root: StateNode, flow: Json, resolved: Map<Transition, StateNode>, graphComplete: boolean): Set<StateNode> {
  const reachable = new Set<StateNode>([root]);
  const enter = (node: StateNode) => {
    for (let n: StateNode | undefined = node; n && !reachable.has(n); n = n.parent) reachable.add(n);
    if (node.config.type === 'parallel') for (const c of node.children.values()) if (!reachable.has(c)) enter(c);
    const initial = node.config.initial;
    const first = typeof initial === 'string' ? node.children.get(initial) : undefined;
    if (first && !reachable.has(first)) enter(first);
  };
  const rootInitial = root.children.get(String(flow.initial));
  if (rootInitial) enter(rootInitial);
  for (const node of root.children.values()) if (metaOf(node).entry === true) enter(node);
  const errorNode = root.children.get(String((flow.meta as Json).errorState));
  if (errorNode) enter(errorNode);
  for (let changed = graphComplete; changed; ) {
    changed = false;
    for (const [t, target] of resolved) {
      if (reachable.has(t.node) && !reachable.has(target)) {
        enter(target);
        changed = true;
      }
    }
  }
  return reachable;
}

export function flowContext(flow: Json, input: { formNames: string[]; otherFlowPaths?: string[] | undefined; lineOf(pointer: string): number }): FlowContext {
  // The domain's one reader: the lint checks the flow as the runtime will read it.
  const root = describeFlow(flow as unknown as FlowConfig).root;
  const nodes = allNodes(root);
  const targets = nodes.flatMap((node) =>
    nodeTransitions(node).flatMap((transition) => (transition.target ? [{ transition, resolution: resolveTarget(root, node, transition.target.value) }] : [])),
  );
  const resolved = new Map(targets.flatMap(({ transition, resolution }) => ('node' in resolution ? [[transition, resolution.node] as const] : [])));
  const graphComplete = resolved.size === targets.length && nodes.every((node) => initialProblem(root, node) === undefined);
  const handOvers = handOverStates([...resolved].map(([transition, target]) => ({ transition, target })));
  const leaves = nodes.filter((n) => n !== root && n.children.size === 0);
  const deadEnds = new Set(
    leaves.filter(
      (leaf) =>
        leaf.config.type !== 'final' && !handOvers.has(leaf) && !activeWith(root, leaf).some((n) => nodeTransitions(n).some((t) => t.target !== undefined)),
    ),
  );
  const pageEdges = [...resolved].map(([t, target]) => ({ t, from: topLevelOf(t.node), to: topLevelOf(target) })).filter((e) => e.from !== e.to);
  const meta = flow.meta as Json;
  return {
    flow,
    meta,
    totalSteps: Number(meta.totalSteps),
    root,
    nodes,
    topLevel: [...root.children.values()],
    formNames: input.formNames,
    otherFlowPaths: input.otherFlowPaths,
    lineOf: input.lineOf,
    targets,
    resolved,
    graphComplete,
    rootInitial: root.children.get(String(flow.initial)),
    reachable: reachableStates(root, flow, resolved, graphComplete),
    handOvers,
    leaves,
    deadEnds,
    pageEdges,
  };
}
