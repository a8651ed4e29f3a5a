import { assign, createMachine, type AnyMachineSnapshot, type AnyStateMachine, type EventObject } from 'xstate';
import { allNodes, describeFlow, invokesOf, isObject, metaOf, nodeTransitions, resolvedTransitions, type Json, type StateNode, type Transition } from '../../src/domain/flow/model';
import { handOverStates, providerReturnPages } from '../../src/flow-tools/statechart';
import type { FlowConfig } from '../../src/domain/flow/types';
import { actorNames, guardNames, isOneOf, type ActorName, type GuardName } from '../../src/domain/flow/vocabulary';
import type { ProviderOutcome } from '../e2e/drivers/types';
import type { ProviderMethod } from '../../src/domain/identity-check-methods';
import { actorModels, freshWorld, guardHolds, guardsMadeTrueBy, methodOfOutcome, outcomeOffered, providerOutcomes, type World } from './world';

/**
 * The test machine of a flow, derived from its JSON with no per-flow code: the same states,
 * ids and targets, without the flow's actions and actors. What the app does by itself becomes
 * an event the test can name: an invoked actor's answer is `<actor>.done` / `<actor>.error`,
 * and each guarded alternative is its own event, `<event> [<guard>]`, enabled only when the
 * guard holds in the test's world (./world.ts). The hand-over to the identity provider (the
 * state entered with the leaveForProvider action) gets one event per provider outcome that
 * returns to the flow's provider-return page, enabled only for the method started last (the
 * simulator's outcomes after a photo-ID start, the OpenID stand-in's after a JPKI one); the
 * outcome decides which answer the poll there can give, so every generated path is one the
 * real server can produce.
 */

export type TransitionKind =
  /** An applicant's action on a screen: the flow's own event (NEXT, BACK, …). */
  | 'user'
  /** An invoked actor's answer: happens by itself once the actor runs. */
  | 'actor'
  /** An outcome chosen on the identity provider's page (the test's, not the flow's). */
  | 'provider'
  /** An eventless (always) transition. */
  | 'automatic';

export interface ModelTransition {
  /** `<source node id> <event>`, unique in the machine. */
  key: string;
  /** Id of the state node the transition is written on, e.g. "general.verification". */
  source: string;
  /** The test machine's event type. */
  event: string;
  kind: TransitionKind;
  /** For 'user': the event the screen sends (the driver's key). */
  flowEvent?: string;
  actor?: { name: ActorName; result: 'done' | 'error' };
  outcome?: ProviderOutcome;
  guard?: GuardName;
  /** The target as written (undefined for a transition that stays). */
  target?: string;
  /** Set when an earlier alternative without a guard always wins: the transition can never be taken. */
  shadowed?: boolean;
}

export interface TestFlow {
  flow: FlowConfig;
  machine: AnyStateMachine;
  transitions: ModelTransition[];
  transitionByKey: Map<string, ModelTransition>;
  /** Every state node id but the root's, parents before children. */
  stateIds: string[];
  /** Leaf ids of the hand-over states. */
  handOver: string[];
  /** Top-level state id of the page the provider sends the applicant back to. */
  providerReturn?: string;
  /** Provider outcomes this flow can meet: of a method it starts, leading only to guards it uses. */
  outcomes: ProviderOutcome[];
}

/** The subset of XState's state config the derived machine uses. */
interface TestTransitionConfig {
  target?: string;
  guard: (args: { context: World }) => boolean;
  actions?: unknown;
}
interface TestNodeConfig {
  id?: string;
  type?: string;
  initial?: string;
  meta?: Json;
  context?: World;
  entry?: unknown;
  on?: Record<string, TestTransitionConfig>;
  states?: Record<string, TestNodeConfig>;
}

function nodeId(flowId: string, node: StateNode): string {
  return [flowId, ...node.path].join('.');
}

/** The test event of a transition of the file. */
function baseEvent(transition: Transition): { event: string; kind: TransitionKind; actor?: ModelTransition['actor'] } {
  if (transition.invoke) {
    const { src, outcome } = transition.invoke;
    if (!isOneOf(actorNames, src)) throw new Error(`unknown actor "${src}" (not in src/domain/flow/vocabulary.ts)`);
    return { event: `${src}.${outcome}`, kind: 'actor', actor: { name: src, result: outcome } };
  }
  if (transition.event === 'always') return { event: 'always', kind: 'automatic' };
  return { event: transition.event, kind: 'user' };
}

function guardOf(transition: Transition, where: string): GuardName | undefined {
  const name = transition.guard?.value;
  if (name === undefined) return undefined;
  if (!isOneOf(guardNames, name)) throw new Error(`${where}: unknown guard "${name}" (not in src/domain/flow/vocabulary.ts)`);
  return name;
}

/** Whether an actor can give this answer in this world (user events always can). */
function possible(actor: ModelTransition['actor'], world: World): boolean {
  if (!actor) return true;
  const model = actorModels[actor.name];
  return actor.result === 'done' ? model.canFinish(world) : model.canFail(world);
}

export function deriveTestFlow(flow: FlowConfig): TestFlow {
  // The runtime's own reading of the flow (src/domain/flow/model.ts): the journeys test what applicants get.
  const root = describeFlow(flow).root;
  const flowId = flow.id;
  const transitions: ModelTransition[] = [];
  const usedGuards = new Set<GuardName>();
  /** The provider methods an actor of the flow starts (what its answer makes the world's method). */
  const startedMethods = new Set<ProviderMethod>();
  const probe: World = freshWorld(flow.meta.applicationType);

  const build = (node: StateNode): TestNodeConfig => {
    const config: TestNodeConfig = {};
    const source = nodeId(flowId, node);
    if (typeof node.config.type === 'string') config.type = node.config.type;
    if (typeof node.config.initial === 'string') config.initial = node.config.initial;
    if (node.config.meta !== undefined) config.meta = metaOf(node);
    const on: Record<string, TestTransitionConfig> = {};
    const inputOf = (src: string): Json | undefined => {
      const input = invokesOf(node).find((invoke) => invoke.src === src)?.config.input;
      return isObject(input) ? input : undefined;
    };
    // Alternatives of one event, in file order: XState takes the first whose guard holds.
    const groups = new Map<string, Transition[]>();
    for (const t of nodeTransitions(node)) groups.set(baseEvent(t).event, [...(groups.get(baseEvent(t).event) ?? []), t]);
    for (const [event, alternatives] of groups) {
      const earlierGuards: GuardName[] = [];
      let unguardedBefore = false;
      alternatives.forEach((alternative, index) => {
        const { kind, actor } = baseEvent(alternative);
        const guard = guardOf(alternative, `${source} ${event}`);
        if (guard) usedGuards.add(guard);
        let name = guard ? `${event} [${guard}]` : event;
        if (on[name]) name = `${name} (#${index + 1})`;
        const shadowed = unguardedBefore;
        const before = [...earlierGuards];
        const effects = actor ? actorModels[actor.name].after : undefined;
        const input = actor ? inputOf(actor.name) : undefined;
        if (effects && actor) {
          const method = effects(probe, actor.result, input).method;
          if (method) startedMethods.add(method);
        }
        on[name] = {
          ...(alternative.target ? { target: alternative.target.value } : {}),
          guard: ({ context }) =>
            !shadowed && possible(actor, context) && (guard ? guardHolds[guard](context) : true) && before.every((g) => !guardHolds[g](context)),
          ...(effects && actor ? { actions: assign(({ context }: { context: World }) => ({ ...context, ...effects(context, actor.result, input) })) } : {}),
        };
        transitions.push({
          key: `${source} ${name}`,
          source,
          event: name,
          kind,
          ...(kind === 'user' ? { flowEvent: alternative.event } : {}),
          ...(actor ? { actor } : {}),
          ...(guard ? { guard } : {}),
          ...(alternative.target ? { target: alternative.target.value } : {}),
          ...(shadowed ? { shadowed } : {}),
        });
        if (guard) earlierGuards.push(guard);
        else unguardedBefore = true;
      });
    }
    if (Object.keys(on).length > 0) config.on = on;
    if (node.children.size > 0) {
      config.states = {};
      for (const [key, child] of node.children) config.states[key] = build(child);
    }
    return config;
  };

  const machineConfig: TestNodeConfig = { ...build(root), id: flowId, context: freshWorld(flow.meta.applicationType) };
  const landing = machineConfig.states?.[flow.meta.landing];
  // The landing page starts a new application.
  if (landing) landing.entry = assign(() => freshWorld(flow.meta.applicationType));

  // The hand-over: the provider sends the applicant back to the flow's provider-return page.
  const handOverNodes = [...handOverStates(resolvedTransitions(root))];
  const returnPages = providerReturnPages(root);
  if (handOverNodes.length > 0 && returnPages.length !== 1) {
    throw new Error(`${flowId}: the flow hands over to the identity provider but has ${returnPages.length} pages it can come back to (one expected)`);
  }
  const providerReturn = returnPages[0]?.path[0];
  const outcomes = providerOutcomes.filter(
    (outcome) => startedMethods.has(methodOfOutcome(outcome)) && guardsMadeTrueBy(outcome, probe).every((g) => usedGuards.has(g)),
  );
  for (const node of handOverNodes) {
    let config: TestNodeConfig | undefined = machineConfig;
    for (const key of node.path) config = config?.states?.[key];
    if (!config || providerReturn === undefined) continue;
    const source = nodeId(flowId, node);
    config.on = { ...config.on };
    for (const outcome of outcomes) {
      config.on[outcome] = {
        target: `#${flowId}.${providerReturn}`,
        guard: ({ context }) => outcomeOffered(outcome, context),
        actions: assign(({ context }: { context: World }) => ({ ...context, provider: outcome })),
      };
      transitions.push({ key: `${source} ${outcome}`, source, event: outcome, kind: 'provider', outcome, target: `#${flowId}.${providerReturn}` });
    }
  }

  // The derived config is XState's own shape, built at run time from JSON: TypeScript cannot follow it.
  const machine = createMachine(machineConfig as unknown as Parameters<typeof createMachine>[0]);
  return {
    flow,
    machine,
    transitions,
    transitionByKey: new Map(transitions.map((t) => [t.key, t])),
    stateIds: allNodes(root)
      .filter((n) => n.path.length > 0)
      .map((n) => nodeId(flowId, n)),
    handOver: handOverNodes.map((n) => nodeId(flowId, n)),
    ...(providerReturn !== undefined ? { providerReturn } : {}),
    outcomes,
  };
}

// ---------------------------------------------------------------------------------------------
// Reading snapshots of a test machine
// ---------------------------------------------------------------------------------------------

/** Ids of the state nodes a snapshot is in, outermost first, e.g. ["general.verification", "general.verification.code"]. */
export function activeStateIds(flowId: string, value: unknown, prefix: string[] = []): string[] {
  if (typeof value === 'string') return [[flowId, ...prefix, value].join('.')];
  if (value && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => [
      [flowId, ...prefix, key].join('.'),
      ...activeStateIds(flowId, child, [...prefix, key]),
    ]);
  }
  return [];
}

/** The innermost state, as words: "verification.code". */
export function stateName(flowId: string, snapshot: AnyMachineSnapshot): string {
  const ids = activeStateIds(flowId, snapshot.value);
  return (ids[ids.length - 1] ?? '').slice(flowId.length + 1);
}

/** The top-level state (the page) of a snapshot. */
export function topLevelStateOf(snapshot: AnyMachineSnapshot): string {
  const value: unknown = snapshot.value;
  return typeof value === 'string' ? value : Object.keys(value as object)[0] ?? '';
}

export function serializeSnapshot(snapshot: AnyMachineSnapshot): string {
  return JSON.stringify({ value: snapshot.value, context: snapshot.context });
}

/** The transition an event takes from a snapshot, or undefined when none is enabled. */
export function transitionTaken(testFlow: TestFlow, snapshot: AnyMachineSnapshot, event: EventObject): ModelTransition | undefined {
  const [definition] = testFlow.machine.getTransitionData(snapshot, event);
  if (!definition) return undefined;
  return testFlow.transitionByKey.get(`${definition.source.id} ${definition.eventType}`);
}

/**
 * The leaves from which a compound state's own transitions are taken: the inner steps farthest
 * from its initial one. A page with inner steps (the e-mail address, then the code) is left
 * from its last step, as its screen only offers the page's own buttons there.
 */
function lastInnerSteps(testFlow: TestFlow, compoundId: string): Set<string> {
  const compound = testFlow.machine.getStateNodeById(compoundId);
  const inside = (id: string) => id.startsWith(`${compoundId}.`);
  const leafOf = (node: typeof compound): typeof compound => {
    let current = node;
    while (current.initial && current.initial.target[0]) current = current.initial.target[0];
    return current;
  };
  const start = leafOf(compound).id;
  const distance = new Map<string, number>([[start, 0]]);
  const queue = [start];
  while (queue.length > 0) {
    const id = queue.shift() as string;
    for (const definitions of testFlow.machine.getStateNodeById(id).transitions.values()) {
      for (const definition of definitions) {
        for (const target of definition.target ?? []) {
          const leaf = leafOf(target).id;
          if (!inside(leaf) || distance.has(leaf)) continue;
          distance.set(leaf, (distance.get(id) ?? 0) + 1);
          queue.push(leaf);
        }
      }
    }
  }
  const farthest = Math.max(...distance.values());
  return new Set([...distance].filter(([, d]) => d === farthest).map(([id]) => id));
}

const lastStepsCache = new WeakMap<TestFlow, Map<string, Set<string>>>();

/** The events a journey may send in a snapshot: enabled ones, a page's own events from its last inner step only. */
export function enabledEvents(testFlow: TestFlow, snapshot: AnyMachineSnapshot): EventObject[] {
  if (snapshot.status !== 'active') return [];
  const active = activeStateIds(testFlow.flow.id, snapshot.value);
  const leaf = active[active.length - 1];
  let cache = lastStepsCache.get(testFlow);
  if (!cache) lastStepsCache.set(testFlow, (cache = new Map()));
  const events: EventObject[] = [];
  const seen = new Set<string>();
  for (const id of [...active].reverse()) {
    for (const type of testFlow.machine.getStateNodeById(id).transitions.keys()) {
      if (seen.has(type)) continue;
      seen.add(type);
      const taken = transitionTaken(testFlow, snapshot, { type });
      if (!taken) continue;
      if (taken.source !== leaf && leaf !== undefined) {
        let last = cache.get(taken.source);
        if (!last) cache.set(taken.source, (last = lastInnerSteps(testFlow, taken.source)));
        if (!last.has(leaf)) continue;
      }
      events.push({ type });
    }
  }
  return events;
}
