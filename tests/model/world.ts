import { EKYC_MAX_ATTEMPTS } from '../../src/domain/ekyc';
import type { ApplicationType } from '../../src/domain/flow/types';
import bank0177 from '../../banks/0177/bank.json';
import type { BankConfig } from '../../src/domain/bank/types';
import { methodGuards, type ActorName, type GuardName } from '../../src/domain/flow/vocabulary';
import { methodsOfferedAt, type VerificationMethod } from '../../src/domain/identity-check-methods';
import type { ProviderOutcome } from '../e2e/drivers/types';

/**
 * What the test machines know of the world outside the flow file: what each guard and each
 * invoked actor of the vocabulary depends on, and what the identity provider (the simulator)
 * answers. The flow JSON says which alternative a guard picks; only this file says when the
 * guard holds. Records over the vocabulary: a new guard or actor name is a compile error here
 * until the tests know what it means.
 */
export interface World {
  applicationType: ApplicationType;
  /** The outcome chosen on the provider's page, until the page that waits for it has its answer. */
  provider: ProviderOutcome | null;
  /** Identity-check sessions this application has started (the server allows EKYC_MAX_ATTEMPTS). */
  ekycStarts: number;
  /** The methods the banks offer today (bank.json identityCheckMethods; the same for the three banks). */
  offeredMethods: readonly VerificationMethod[];
}

/** What the test server offers: the banks' configuration on the day the tests run, as the server reads it. */
export const OFFERED_TODAY: readonly VerificationMethod[] = methodsOfferedAt((bank0177 as BankConfig).identityCheckMethods, new Date());

/** A new application: what the landing page starts from. */
export function freshWorld(applicationType: ApplicationType): World {
  return { applicationType, provider: null, ekycStarts: 0, offeredMethods: OFFERED_TODAY };
}

/** When each guard of the vocabulary holds. */
export const guardHolds: Record<GuardName, (world: World) => boolean> = {
  // The poll's answer carries supplement: true when the simulator was told "supplement".
  supplementRequested: (world) => world.provider === 'supplement',
  photoIdOffered: (world) => world.offeredMethods.includes(methodGuards.photoIdOffered),
  jpkiOffered: (world) => world.offeredMethods.includes(methodGuards.jpkiOffered),
  childDocumentImagesOffered: (world) => world.offeredMethods.includes(methodGuards.childDocumentImagesOffered),
};

/** A request the test makes fail (the network drops it) for a failure an applicant cannot cause. */
export interface InjectedFailure {
  method: 'POST' | 'GET';
  /** Path of the request on the bank's host. */
  path: string;
}

export interface ActorModel {
  /** Whether the actor can finish (onDone) in this world. */
  canFinish: (world: World) => boolean;
  /** Whether it can fail (onError) in this world. */
  canFail: (world: World) => boolean;
  /** How the world changes when the actor has its answer. */
  after?: (world: World, result: 'done' | 'error') => Partial<World>;
  /**
   * Set when no applicant action makes the actor fail while the server is up: the journey then
   * drops the actor's request, as a lost connection would (the server never sees it). Every
   * other failure in the journeys is the real one.
   */
  injectedFailure?: InjectedFailure;
}

/** Simulator outcome → what the page polling for the result sees (src/server/ekyc/simulator.ts, statuses in src/domain/ekyc.ts). */
const pollFinishes: Record<ProviderOutcome, boolean> = {
  approve: true, // status 4
  supplement: true, // status 4 with supplement
  reject: false, // status 9: the poll fails
  pending: false, // status 2 until the poll runs out of tries
  error: false, // status 8
};

export const actorModels: Record<ActorName, ActorModel> = {
  startEkyc: {
    // After EKYC_MAX_ATTEMPTS sessions the server refuses a new one (409): a real failure.
    canFinish: (world) => world.ekycStarts < EKYC_MAX_ATTEMPTS,
    canFail: () => true,
    after: (world, result) => (result === 'done' ? { ekycStarts: world.ekycStarts + 1 } : {}),
    injectedFailure: { method: 'POST', path: '/api/ekyc' },
  },
  pollEkycStatus: {
    canFinish: (world) => world.provider !== null && pollFinishes[world.provider],
    canFail: (world) => world.provider !== null && !pollFinishes[world.provider],
    after: () => ({ provider: null }),
  },
  completeApplication: {
    canFinish: () => true,
    canFail: () => true,
    injectedFailure: { method: 'POST', path: '/api/application-complete' },
  },
};

/** The simulator's outcomes, in the order the planner tries them. */
export const providerOutcomes = Object.keys(pollFinishes) as ProviderOutcome[];

/**
 * The guards that hold only because of a provider outcome. The outcome is offered in a flow
 * only when the flow uses each of them: a flow without a supplementRequested alternative (the
 * child flow) has no page for a supplement request, so that outcome is no journey of it.
 */
export function guardsMadeTrueBy(outcome: ProviderOutcome, world: World): GuardName[] {
  const names = Object.keys(guardHolds) as GuardName[];
  return names.filter((name) => guardHolds[name]({ ...world, provider: outcome }) && !guardHolds[name]({ ...world, provider: null }));
}
