import { VERIFICATION_METHODS, type VerificationMethod } from '../identity-check-methods.js';

/**
 * The names a flow file may use. The flow JSON refers to screens, guards, actions and actors
 * by these names only; the client implements each one exactly once (TypeScript checks that
 * every name has an implementation) and the flow lint refuses any other name up front,
 * because XState itself ignores an unknown action silently and throws late on a guard.
 */
export const screenNames = [
  'GeneralTerm',
  'Verification',
  'Confirmation',
  'Pin',
  'EkycPreparation',
  'EkycCallback',
  'Supplement',
  'SupplementError',
  'Redirect',
  'Complete',
  'EkycError',
  'SystemError',
  'ChildBeforeCheck',
  'ChildTerm',
  'ChildEkycPreparation',
  'IdentificationDocuments',
  'SupplementaryDocuments',
  'FormStep',
] as const;
export type ScreenName = (typeof screenNames)[number];

/**
 * The generic form step: renders and posts whichever form meta.form names, from its schema
 * alone (schemas/<form>.schema.json with "x-step"). The other form screens are steps whose
 * behaviour is not yet all data.
 */
export const GENERIC_FORM_SCREEN = 'FormStep' satisfies ScreenName;

/** The screen that sets the PIN: what was entered is final after it, and its form is no step's answers. */
export const PIN_SCREEN = 'Pin' satisfies ScreenName;

/**
 * The screens that ask the form their state names in meta.form (schemas/<form>.schema.json):
 * the page renders that schema and posts it, so the lint wants meta.form on them and on
 * no other screen.
 */
export const formScreenNames = ['FormStep', 'Confirmation', 'Pin'] as const satisfies readonly ScreenName[];

export const guardNames = ['supplementRequested', 'photoIdOffered', 'jpkiOffered', 'childDocumentImagesOffered'] as const;
export type GuardName = (typeof guardNames)[number];

/**
 * The guards that hold while the bank offers an identity-check method (bank.json
 * identityCheckMethods, by date; ADR 0037): a flow offers a way only when its guard holds, so
 * the switch of 2027-04-01 is the banks' configuration, not a flow edit.
 */
export const methodGuards = {
  photoIdOffered: VERIFICATION_METHODS.IMAGE_SELFIE_PHOTO_ID,
  jpkiOffered: VERIFICATION_METHODS.JPKI_SIGNATURE,
  childDocumentImagesOffered: VERIFICATION_METHODS.CHILD_DOCUMENT_IMAGES,
} as const satisfies Partial<Record<GuardName, VerificationMethod>>;
export type MethodGuardName = keyof typeof methodGuards;

export const actionNames = [
  'clearSessionStorage',
  'storeBankCode',
  'forgetAuthenticationToken',
  'leaveForProvider',
  'clearApplicationTraces',
] as const;
export type ActionName = (typeof actionNames)[number];

export const actorNames = ['startEkyc', 'pollEkycStatus', 'completeApplication'] as const;
export type ActorName = (typeof actorNames)[number];

/*
 * Business traits of the names above: what the flow tools (lint, diagram, generated journeys)
 * and the server's checks need to know about a name, declared once here instead of written
 * into each tool. The screen that sets the PIN is PIN_SCREEN above.
 */

/**
 * The action that sends the browser to the identity provider. The state it enters is where the
 * applicant leaves the app: it needs no way out, and the applicant comes back on a provider return page.
 */
export const HAND_OVER_ACTION = 'leaveForProvider' satisfies ActionName;

/** The actor that starts the identity check: what was entered and uploaded before is submitted then, so there is no way back from its page. */
export const EKYC_START_ACTOR = 'startEkyc' satisfies ActorName;

/** The actor that waits for the provider's result: an entry page invoking it is where the provider sends the applicant back. */
export const PROVIDER_RETURN_ACTOR = 'pollEkycStatus' satisfies ActorName;

/** What an actor reads from one key of its "input". */
export type ActorInputRule =
  | { kind: 'integer'; min: number; max: number; meaning: string }
  /** Must equal the flow's meta.applicationType. */
  | { kind: 'applicationType' }
  /** A method the applicant starts at a provider (providerMethods). */
  | { kind: 'providerMethod' };

/**
 * What each actor reads from "input" (src/client/runtime/implementations.ts); every key is required,
 * and the flow lint checks each one. The ranges keep a slip of the pen out: "5" for five seconds
 * would poll the server every 5 ms.
 */
export const actorInputs: Record<ActorName, Record<string, ActorInputRule>> = {
  startEkyc: { applicationType: { kind: 'applicationType' }, method: { kind: 'providerMethod' } },
  pollEkycStatus: {
    intervalMs: { kind: 'integer', min: 1000, max: 60_000, meaning: 'milliseconds between two status checks: 5000 is 5 seconds' },
    maxTries: { kind: 'integer', min: 1, max: 100, meaning: 'status checks before the applicant is sent to the eKYC error page' },
  },
  completeApplication: {},
};

/** Events a screen may send to its flow. */
export const eventTypes = ['NEXT', 'BACK', 'RETRY', 'RESTART', 'FAIL', 'CODE_SENT', 'START_EKYC', 'START_JPKI'] as const;
export type FlowEventType = (typeof eventTypes)[number];

export function isOneOf<T extends string>(list: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (list as readonly string[]).includes(value);
}
