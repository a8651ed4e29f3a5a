import { createTestModel, getAdjacencyMap, type AdjacencyMap, type TestPath } from '@xstate/graph';
import { getInitialSnapshot, getNextSnapshot, type AnyMachineSnapshot, type EventObject } from 'xstate';
import type { FlowConfig } from '../../src/domain/flow/types';
import { bankCodes, type BankCode } from '../e2e/support';
import { conditionCoverage, formVisitsOf, type ConditionCoverage, type FormVisits } from './form-visits';
import {
  activeStateIds,
  deriveTestFlow,
  enabledEvents,
  serializeSnapshot,
  stateName,
  transitionTaken,
  type ModelTransition,
  type TestFlow,
} from './test-machine';

/**
 * Test plans from the test machines (./test-machine.ts): few journeys that together enter
 * every state and take every transition a journey can take. Each browser journey costs tens
 * of seconds, most of it the forms before the identity check, so the planner walks as far as
 * it can in one application: from where it is, it takes the uncovered transition that leaves
 * the most uncovered ones still reachable in this journey (then the nearest, then the one
 * going furthest back, so each BACK is taken and the steps are done again), and ends the
 * journey at a final state or when a transition returns to the landing page (a new
 * application). Journeys start on the landing page; what only another entry page leads to
 * (an error page nothing in the machine enters) gets a journey opening that page by its URL.
 * The event sequences become paths through createTestModel (getPathsFromEvents).
 */

export type Snapshot = AnyMachineSnapshot;
export type PlannedPath = TestPath<Snapshot, EventObject>;

interface Edge {
  event: EventObject;
  key: string;
  to: string;
  /** Whether the app takes it by itself (an actor's answer, an eventless transition), not the applicant. */
  byItself: boolean;
}

interface Graph {
  initial: string;
  /** Where a journey may begin: the initial state, then each other entry page (opened by its URL). */
  starts: string[];
  vertices: Map<string, { snapshot: Snapshot; edges: Edge[] }>;
  /** Shortest distance of each vertex from the initial one. */
  depth: Map<string, number>;
}

/** The snapshots a journey can start from: the initial one, then each other entry page's. */
export function startSnapshots(testFlow: TestFlow): Snapshot[] {
  const initial = getInitialSnapshot(testFlow.machine);
  const entries = Object.entries(testFlow.flow.states)
    .filter(([id, state]) => state.meta?.entry === true && state.meta.path !== undefined && id !== testFlow.flow.initial)
    .map(([id]) => testFlow.machine.resolveState({ value: id, context: initial.context }) as Snapshot);
  return [initial, ...entries];
}

function exploreGraph(testFlow: TestFlow): Graph {
  const starts = startSnapshots(testFlow);
  const vertices = new Map<string, { snapshot: Snapshot; edges: Edge[] }>();
  for (const start of starts) {
    // The machine is built from JSON at run time, so its snapshot and event types are the general ones.
    const adjacency: AdjacencyMap<Snapshot, EventObject> = getAdjacencyMap(testFlow.machine, {
      fromState: start,
      events: (snapshot) => enabledEvents(testFlow, snapshot as Snapshot),
      serializeState: (snapshot) => serializeSnapshot(snapshot as Snapshot) as ReturnType<typeof serializeSnapshot> & { __tag: 'state' },
    }) as AdjacencyMap<Snapshot, EventObject>;
    for (const [serial, { state, transitions }] of Object.entries(adjacency)) {
      if (vertices.has(serial)) continue;
      const edges: Edge[] = [];
      // Keys are branded strings, which Object.values cannot see through.
      for (const { event, state: next } of Object.values(transitions) as Array<{ event: EventObject; state: Snapshot }>) {
        const taken = transitionTaken(testFlow, state, event);
        if (taken) edges.push({ event, key: taken.key, to: serializeSnapshot(next), byItself: taken.kind === 'actor' || taken.kind === 'automatic' });
      }
      vertices.set(serial, { snapshot: state, edges });
    }
  }
  const initial = serializeSnapshot(starts[0] as Snapshot);
  const depth = new Map<string, number>([[initial, 0]]);
  const queue = [initial];
  while (queue.length > 0) {
    const at = queue.shift() as string;
    for (const edge of vertices.get(at)?.edges ?? []) {
      if (depth.has(edge.to)) continue;
      depth.set(edge.to, (depth.get(at) ?? 0) + 1);
      queue.push(edge.to);
    }
  }
  return { initial, starts: starts.map(serializeSnapshot), vertices, depth };
}

/** Uncovered transitions reachable from a vertex without starting a new application. */
function reachableUncovered(graph: Graph, from: string, uncovered: Set<string>): Set<string> {
  const found = new Set<string>();
  if (from === graph.initial) return found;
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length > 0) {
    const at = queue.shift() as string;
    for (const edge of graph.vertices.get(at)?.edges ?? []) {
      if (uncovered.has(edge.key)) found.add(edge.key);
      if (seen.has(edge.to) || edge.to === graph.initial) continue;
      seen.add(edge.to);
      queue.push(edge.to);
    }
  }
  return found;
}

/** The next stretch of a journey: a route ending with the best uncovered transition, or undefined. */
function nextStretch(graph: Graph, from: string, uncovered: Set<string>): Edge[] | undefined {
  // Breadth-first from `from`, never through the landing page (that would be a new application).
  const routeTo = new Map<string, Edge[]>([[from, []]]);
  const order = [from];
  for (let i = 0; i < order.length; i++) {
    const at = order[i] as string;
    if (at === graph.initial && at !== from) continue;
    for (const edge of graph.vertices.get(at)?.edges ?? []) {
      if (routeTo.has(edge.to)) continue;
      routeTo.set(edge.to, [...(routeTo.get(at) ?? []), edge]);
      order.push(edge.to);
    }
  }
  let best: { route: Edge[]; score: number; depth: number } | undefined;
  for (const at of order) {
    if (at === graph.initial && at !== from) continue;
    const route = routeTo.get(at) ?? [];
    for (const edge of graph.vertices.get(at)?.edges ?? []) {
      if (!uncovered.has(edge.key)) continue;
      const left = new Set(uncovered);
      for (const step of [...route, edge]) left.delete(step.key);
      const score = reachableUncovered(graph, edge.to, left).size;
      const depth = graph.depth.get(edge.to) ?? 0;
      const candidate = { route: [...route, edge], score, depth };
      if (
        !best ||
        score > best.score ||
        (score === best.score && candidate.route.length < best.route.length) ||
        (score === best.score && candidate.route.length === best.route.length && depth < best.depth)
      ) {
        best = candidate;
      }
    }
  }
  return best?.route;
}

/**
 * Where the app goes by itself from a vertex where only it can act (the return page polling,
 * /redirect completing): the answers it gets when nothing fails (an actor's done first), up to
 * a page that waits for the applicant or a final state. A journey ends there, never mid-poll.
 */
function settle(graph: Graph, from: string): Edge[] {
  const route: Edge[] = [];
  const seen = new Set([from]);
  let at = from;
  for (;;) {
    const vertex = graph.vertices.get(at);
    if (!vertex || vertex.snapshot.status !== 'active' || vertex.edges.length === 0 || !vertex.edges.every((e) => e.byItself)) return route;
    const edge = vertex.edges.find((e) => e.event.type.includes('.done')) ?? vertex.edges[0];
    if (!edge || seen.has(edge.to)) return route;
    route.push(edge);
    seen.add(edge.to);
    at = edge.to;
  }
}

/** Event sequences of the journeys, each from the initial state. */
function planJourneys(graph: Graph): Array<{ start: string; events: EventObject[] }> {
  const uncovered = new Set<string>();
  for (const { edges } of graph.vertices.values()) for (const edge of edges) uncovered.add(edge.key);
  const journeys: Array<{ start: string; events: EventObject[] }> = [];
  while (uncovered.size > 0) {
    const events: EventObject[] = [];
    // From the landing page while it leads to something new; then from the other entry pages.
    const start = graph.starts.find((s) => nextStretch(graph, s, uncovered) !== undefined);
    if (start === undefined) throw new Error(`the planner is stuck with ${[...uncovered].join(', ')} uncovered`);
    let at = start;
    for (;;) {
      const stretch = nextStretch(graph, at, uncovered);
      if (!stretch) break;
      for (const edge of stretch) {
        events.push(edge.event);
        uncovered.delete(edge.key);
        at = edge.to;
      }
      if (at === graph.initial || graph.vertices.get(at)?.snapshot.status !== 'active') break;
    }
    for (const edge of settle(graph, at)) {
      events.push(edge.event);
      uncovered.delete(edge.key);
    }
    journeys.push({ start, events });
  }
  return journeys;
}

// ---------------------------------------------------------------------------------------------
// Coverage
// ---------------------------------------------------------------------------------------------

export interface Uncovered {
  /** A state id or a transition written as words. */
  name: string;
  /** Why no journey takes it. */
  reason: string;
}

export interface CoverageCount {
  total: number;
  covered: number;
  uncovered: Uncovered[];
}

export interface Coverage {
  states: CoverageCount;
  /** The flow's own transitions (screens' events and actors' answers). */
  transitions: CoverageCount;
  /** The simulator outcomes the test machine adds at the hand-over. */
  providerOutcomes: CoverageCount;
}

export function transitionWords(t: ModelTransition, flowId: string): string {
  return `${t.source.slice(flowId.length + 1)} —${t.event}→${t.target ? ` ${t.target}` : ''}`;
}

/** The transitions (by key) and states (by id) a set of paths takes. */
export function takenBy(testFlow: TestFlow, paths: PlannedPath[]): { transitions: Set<string>; states: Set<string> } {
  const transitions = new Set<string>();
  const states = new Set<string>();
  for (const path of paths) {
    path.steps.forEach((step, index) => {
      for (const id of activeStateIds(testFlow.flow.id, step.state.value)) states.add(id);
      const before = path.steps[index - 1]?.state;
      if (!before) return;
      const taken = transitionTaken(testFlow, before, step.event);
      if (taken) transitions.add(taken.key);
    });
  }
  return { transitions, states };
}

export function computeCoverage(testFlow: TestFlow, paths: PlannedPath[], graph: Graph = exploreGraph(testFlow)): Coverage {
  const flowId = testFlow.flow.id;
  const taken = takenBy(testFlow, paths);
  const reachableStates = new Set<string>();
  const reachableTransitions = new Set<string>();
  for (const { snapshot, edges } of graph.vertices.values()) {
    for (const id of activeStateIds(flowId, snapshot.value)) reachableStates.add(id);
    for (const edge of edges) reachableTransitions.add(edge.key);
  }
  const why = (t: ModelTransition): string => {
    if (reachableTransitions.has(t.key)) return 'reachable, but no planned journey takes it';
    if (t.shadowed) return 'an earlier alternative without a guard always wins';
    if (!reachableStates.has(t.source)) return `${t.source.slice(flowId.length + 1)} is never entered`;
    if (t.guard) return `its guard ${t.guard} never holds in a ${testFlow.flow.meta.applicationType} application (tests/model/world.ts)`;
    return 'never enabled where a journey can be (tests/model/world.ts)';
  };
  const count = (list: ModelTransition[]): CoverageCount => ({
    total: list.length,
    covered: list.filter((t) => taken.transitions.has(t.key)).length,
    uncovered: list.filter((t) => !taken.transitions.has(t.key)).map((t) => ({ name: transitionWords(t, flowId), reason: why(t) })),
  });
  return {
    states: {
      total: testFlow.stateIds.length,
      covered: testFlow.stateIds.filter((id) => taken.states.has(id)).length,
      uncovered: testFlow.stateIds
        .filter((id) => !taken.states.has(id))
        .map((id) => ({
          name: id.slice(flowId.length + 1),
          reason: reachableStates.has(id) ? 'reachable, but no planned journey enters it' : 'no transition a journey can take enters it',
        })),
    },
    transitions: count(testFlow.transitions.filter((t) => t.kind !== 'provider')),
    providerOutcomes: count(testFlow.transitions.filter((t) => t.kind === 'provider')),
  };
}

// ---------------------------------------------------------------------------------------------
// Plans
// ---------------------------------------------------------------------------------------------

export interface FlowPlan {
  testFlow: TestFlow;
  paths: PlannedPath[];
  coverage: Coverage;
  /** Which visit of its form each submission of a form step is (form-visits.ts): its variant of the sample answers. */
  formVisits: FormVisits;
  /** What the visits cover of the forms' conditions. */
  conditions: ConditionCoverage;
  /** The bank each journey runs at: the banks in turn, from the `firstBank`-th. */
  banks: BankCode[];
}

/** Checks that a path is one the test machine allows step by step; throws naming the first bad step. */
export function assertValidPath(testFlow: TestFlow, path: PlannedPath): void {
  const [first, ...rest] = path.steps;
  const starts = startSnapshots(testFlow).map(serializeSnapshot);
  if (!first || !starts.includes(serializeSnapshot(first.state))) throw new Error('the path does not start at the initial state or an entry page');
  let before = first.state;
  rest.forEach((step, index) => {
    const allowed = enabledEvents(testFlow, before).some((e) => e.type === step.event.type);
    if (!allowed) throw new Error(`step ${index + 1}: ${step.event.type} is not possible in ${stateName(testFlow.flow.id, before)}`);
    const next = getNextSnapshot(testFlow.machine, before, step.event);
    if (serializeSnapshot(next) !== serializeSnapshot(step.state)) throw new Error(`step ${index + 1}: ${step.event.type} does not lead to the recorded state`);
    before = step.state;
  });
}

/** The path in words: "term —NEXT→ verification.address —CODE_SENT→ …". */
export function pathWords(testFlow: TestFlow, path: PlannedPath): string {
  const flowId = testFlow.flow.id;
  return path.steps.map((step, index) => (index === 0 ? stateName(flowId, step.state) : `—${step.event.type}→ ${stateName(flowId, step.state)}`)).join(' ');
}

/** Plans the journeys of a flow, the first at the `firstBank`-th bank, the next at the next bank, and so on. */
export function planFlow(flow: FlowConfig, firstBank = 0): FlowPlan {
  const testFlow = deriveTestFlow(flow);
  const graph = exploreGraph(testFlow);
  const model = createTestModel(testFlow.machine);
  const paths = planJourneys(graph).flatMap(({ start, events }) =>
    model.getPathsFromEvents(events, { fromState: graph.vertices.get(start)?.snapshot }),
  );
  for (const path of paths) assertValidPath(testFlow, path);
  const banks = paths.map((_path, index): BankCode => bankCodes[(firstBank + index) % bankCodes.length] ?? bankCodes[0]);
  return { testFlow, paths, coverage: computeCoverage(testFlow, paths, graph), formVisits: formVisitsOf(testFlow, paths), conditions: conditionCoverage(testFlow, paths, banks), banks };
}

function percent(count: CoverageCount): string {
  return count.total === 0 ? '100.0 %' : `${((100 * count.covered) / count.total).toFixed(1)} %`;
}

/** The coverage report printed by `npm run test:model`. */
export function coverageReport(label: string, plan: FlowPlan): string {
  const { states, transitions, providerOutcomes } = plan.coverage;
  const lines = [
    `${label}: ${plan.paths.length} journeys, ${plan.paths.reduce((n, p) => n + p.steps.length - 1, 0)} steps`,
    `  states       ${states.covered}/${states.total} (${percent(states)})`,
    `  transitions  ${transitions.covered}/${transitions.total} (${percent(transitions)})`,
    `  provider outcomes ${providerOutcomes.covered}/${providerOutcomes.total} (${plan.testFlow.outcomes.join(', ') || 'none'})`,
    `  conditions   ${plan.conditions.ways.covered}/${plan.conditions.ways.total} ways (${percent(plan.conditions.ways)}), each condition of each form holding and not`,
  ];
  for (const [kind, count] of [
    ['state', states],
    ['transition', transitions],
    ['provider outcome', providerOutcomes],
    ['condition', plan.conditions.ways],
  ] as const) {
    for (const item of count.uncovered) lines.push(`  not covered: ${kind} ${item.name} (${item.reason})`);
  }
  return lines.join('\n');
}

/** Whether every uncovered item is one no journey can take (the plan itself misses nothing), and every condition of a form answered from its schema was taken both ways. */
export function planMissesNothingReachable(plan: FlowPlan): boolean {
  const { states, transitions, providerOutcomes } = plan.coverage;
  const reachable = [states, transitions, providerOutcomes].every((count) => count.uncovered.every((item) => !item.reason.startsWith('reachable')));
  return reachable && plan.conditions.ways.uncovered.every((item) => item.reason === 'the journeys visit the form once');
}
