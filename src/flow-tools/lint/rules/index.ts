/**
 * The flow lint's rules, in the order they run (ESLint style: one module per rule, each with its
 * name, a description and a check; each tested in tests/unit/flow-lint-rules/<name>.test.ts).
 * The source rules run on any well-formed file; the meaning rules only once those found nothing,
 * so a typo gives one message instead of a cascade.
 */
import type { FlowLintRule } from '../rule';
import { actorInputsRule } from './actor-inputs';
import { backOnStepPages } from './back-on-step-pages';
import { backToPredecessor } from './back-to-predecessor';
import { exitToOtherFlow } from './exit-to-other-flow';
import { flowSchema } from './flow-schema';
import { initialStates } from './initial-states';
import { invokedActorOutcomes } from './invoked-actor-outcomes';
import { knownActions } from './known-actions';
import { knownActors } from './known-actors';
import { knownEvents } from './known-events';
import { knownForms } from './known-forms';
import { knownGuards } from './known-guards';
import { knownScreens } from './known-screens';
import { landingAndErrorPage } from './landing-and-error-page';
import { movedStates } from './moved-states';
import { noDeadEnds } from './no-dead-ends';
import { noDuplicateKeys } from './no-duplicate-keys';
import { pageMeta } from './page-meta';
import { reachableStates } from './reachable-states';
import { stepOrder } from './step-order';
import { stepRange } from './step-range';
import { transitionTargets } from './transition-targets';
import { uniquePaths } from './unique-paths';
import { wayToAnEnd } from './way-to-an-end';

export const flowLintRules: readonly FlowLintRule[] = [
  // The file as written.
  noDuplicateKeys,
  flowSchema,
  // Names from the vocabulary and the form list.
  knownScreens,
  knownForms,
  knownActions,
  knownEvents,
  knownGuards,
  knownActors,
  actorInputsRule,
  // Pages: their metadata, their paths, the exits into another flow.
  pageMeta,
  uniquePaths,
  exitToOtherFlow,
  // States and targets exist (until they do, the graph rules below wait).
  initialStates,
  transitionTargets,
  landingAndErrorPage,
  movedStates,
  // The graph: reachable, no dead ends, a way to an end.
  reachableStates,
  noDeadEnds,
  invokedActorOutcomes,
  wayToAnEnd,
  // Step counters and the way back.
  stepRange,
  stepOrder,
  backOnStepPages,
  backToPredecessor,
];
