import { EKYC_MAX_ATTEMPTS } from '../../src/domain/ekyc';
import type { ApplicationType } from '../../src/domain/flow/types';
import { readFileSync } from 'node:fs';
import type { BankConfig } from '../../src/domain/bank/types';
import type { Json } from '../../src/domain/flow/model';
import { methodGuards, type ActorName, type GuardName } from '../../src/domain/flow/vocabulary';
import { isProviderMethod, methodsOfferedAt, VERIFICATION_METHODS, verificationMethods, type ProviderMethod, type VerificationMethod } from '../../src/domain/identity-check-methods';
import type { ProviderOutcome } from '../e2e/drivers/types';
import { TEST_IDENTITY_CHECK_DAY } from '../support/identity-check-day';

/**
 * What the test machines know of the world outside the flow file: what each guard and each
 * invoked actor of the vocabulary depends on, and what the identity providers (the simulator
 * for the photo-ID method, the stand-in OpenID provider for JPKI) answer. The flow JSON says which alternative a guard picks; only this file says when the
 * guard holds. Records over the vocabulary: a new guard or actor name is a compile error here
 * until the tests know what it means.
 */
export interface World {
  applicationType: ApplicationType;
  /** The outcome chosen on the provider's page, until the page that waits for it has its answer. */
  provider: ProviderOutcome | null;
  /** The method of the identity-check session started last (its provider's page offers that method's outcomes). */
  method: ProviderMethod | null;
  /** Identity-check sessions this application has started (the server allows EKYC_MAX_ATTEMPTS). */
  ekycStarts: number;
  /** The methods the test server offers (bank.json identityCheckMethods; the same for the three banks). */
  offeredMethods: readonly VerificationMethod[];
}

/** What the test server offers: the banks' configuration on its IDENTITY_CHECK_METHODS_DAY, as the server reads it. */
// Read as a file: Playwright's loader refuses a JSON import without an import attribute.
const bank0177 = JSON.parse(readFileSync(new URL('../../banks/0177/bank.json', import.meta.url), 'utf8')) as BankConfig;
export const OFFERED_TODAY: readonly VerificationMethod[] = methodsOfferedAt(bank0177.identityCheckMethods, TEST_IDENTITY_CHECK_DAY);

/** A new application: what the landing page starts from. */
export function freshWorld(applicationType: ApplicationType): World {
  return { applicationType, provider: null, method: null, ekycStarts: 0, offeredMethods: OFFERED_TODAY };
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
  /** How the world changes when the actor has its answer (`input`: the invoke's input in the flow file). */
  after?: (world: World, result: 'done' | 'error', input: Json | undefined) => Partial<World>;
  /**
   * Set when no applicant action makes the actor fail while the server is up: the journey then
   * drops the actor's request, as a lost connection would (the server never sees it). Every
   * other failure in the journeys is the real one.
   */
  injectedFailure?: InjectedFailure;
}

/** What an outcome chosen on a provider's page means: the method whose page offers it, and what the poll then sees. */
interface OutcomeModel {
  method: ProviderMethod;
  /** Whether the page polling for the result gets a decided, approved check (else its poll fails). */
  pollFinishes: boolean;
}

/**
 * Each provider outcome, in the order the planner tries them. The simulator (src/server/ekyc/simulator.ts,
 * statuses in src/domain/ekyc.ts) answers the photo-ID method; the stand-in OpenID provider
 * (src/server/ekyc/oidc-standin.ts, compared in src/server/ekyc/oidc.ts) the JPKI one.
 */
const outcomeModels: Record<ProviderOutcome, OutcomeModel> = {
  approve: { method: VERIFICATION_METHODS.IMAGE_SELFIE_PHOTO_ID, pollFinishes: true }, // status 4
  supplement: { method: VERIFICATION_METHODS.IMAGE_SELFIE_PHOTO_ID, pollFinishes: true }, // status 4 with supplement
  reject: { method: VERIFICATION_METHODS.IMAGE_SELFIE_PHOTO_ID, pollFinishes: false }, // status 9: the poll fails
  pending: { method: VERIFICATION_METHODS.IMAGE_SELFIE_PHOTO_ID, pollFinishes: false }, // status 2 until the poll runs out of tries
  error: { method: VERIFICATION_METHODS.IMAGE_SELFIE_PHOTO_ID, pollFinishes: false }, // status 8
  // The card's claims are the entered name, birthday and address: approved (4).
  jpkiSamePerson: { method: VERIFICATION_METHODS.JPKI_SIGNATURE, pollFinishes: true },
  // Another person's claims: rejected (9), the poll fails.
  jpkiOtherPerson: { method: VERIFICATION_METHODS.JPKI_SIGNATURE, pollFinishes: false },
};

/** The provider method a startEkyc invoke starts (its input.method in the flow file). */
function startedMethod(input: Json | undefined): ProviderMethod {
  const method = verificationMethods.find((m) => m === input?.method);
  if (method === undefined || !isProviderMethod(method)) throw new Error(`startEkyc: input.method ${JSON.stringify(input?.method)} is no method an identity provider checks`);
  return method;
}

export const actorModels: Record<ActorName, ActorModel> = {
  startEkyc: {
    // After EKYC_MAX_ATTEMPTS sessions the server refuses a new one (409): a real failure.
    canFinish: (world) => world.ekycStarts < EKYC_MAX_ATTEMPTS,
    canFail: () => true,
    after: (world, result, input) => (result === 'done' ? { ekycStarts: world.ekycStarts + 1, method: startedMethod(input) } : {}),
    injectedFailure: { method: 'POST', path: '/api/ekyc' },
  },
  pollEkycStatus: {
    canFinish: (world) => world.provider !== null && outcomeModels[world.provider].pollFinishes,
    canFail: (world) => world.provider !== null && !outcomeModels[world.provider].pollFinishes,
    after: () => ({ provider: null }),
  },
  completeApplication: {
    canFinish: () => true,
    canFail: () => true,
    injectedFailure: { method: 'POST', path: '/api/application-complete' },
  },
};

/** The providers' outcomes, in the order the planner tries them. */
export const providerOutcomes = Object.keys(outcomeModels) as ProviderOutcome[];

/** Whether the provider's page the applicant is on offers this outcome: the page of the method started last. */
export function outcomeOffered(outcome: ProviderOutcome, world: World): boolean {
  return world.method === outcomeModels[outcome].method;
}

/** The method whose provider offers an outcome. */
export function methodOfOutcome(outcome: ProviderOutcome): ProviderMethod {
  return outcomeModels[outcome].method;
}

/**
 * The guards that hold only because of a provider outcome. The outcome is offered in a flow
 * only when the flow uses each of them: a flow without a supplementRequested alternative (the
 * child flow) has no page for a supplement request, so that outcome is no journey of it.
 */
export function guardsMadeTrueBy(outcome: ProviderOutcome, world: World): GuardName[] {
  const names = Object.keys(guardHolds) as GuardName[];
  return names.filter((name) => guardHolds[name]({ ...world, provider: outcome }) && !guardHolds[name]({ ...world, provider: null }));
}
