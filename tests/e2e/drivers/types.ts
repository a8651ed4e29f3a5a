import type { Page } from '@playwright/test';
import type { BankCode } from '../support';

/**
 * Screen drivers: what an applicant does on a screen to send one event of the flow machine.
 * Keyed by the flows' own names (meta.screen and the event types of flows/*.json), so the
 * hand-written journeys (tests/e2e) and the journeys generated from the machines (tests/model)
 * share one description of how each screen is used.
 */
export type FlowId = 'general' | 'child';

/** The simulator's outcomes (src/server/ekyc/simulator.ts), after START_EKYC. */
export type SimulatorOutcome = 'approve' | 'supplement' | 'reject' | 'pending' | 'error';

/**
 * Who is "on the card" at the stand-in OpenID provider (src/server/ekyc/oidc-standin.ts), after
 * START_JPKI: the person entered in the application, or another person.
 */
export type JpkiOutcome = 'jpkiSamePerson' | 'jpkiOtherPerson';

/** What a tester chooses on an identity provider's page. */
export type ProviderOutcome = SimulatorOutcome | JpkiOutcome;

/** What a journey carries from page to page. */
export interface Journey {
  page: Page;
  bank: BankCode;
  flow: FlowId;
  /** Set by the drivers as the journey goes: the mail address used, the application number, … */
  memo: Record<string, string>;
}

/** What a driver knows of its page beyond the screen: the form the page asks (its meta.form). */
export interface PageContext {
  form?: string;
  /** Every form the page asks (meta.form), the first being `form`. */
  pageForms?: readonly string[];
  /** Which visit of the form in the flow's journeys (0 first), for a form filled from its schema (generic-form.ts). */
  visit?: number;
  /** Which of its flow's generated journeys this is (0 first), for the variants of the forms with drivers of their own (own-variants.ts); none outside them. */
  journeyIndex?: number;
}

/** One user action: fill what the screen needs with valid data for journey.bank, then press its button. */
export type EventDriver = (journey: Journey, context: PageContext) => Promise<void>;

/** meta.screen → event type (NEXT, BACK, CODE_SENT, START_EKYC, RETRY, RESTART, FAIL, …) → action. */
export type ScreenDrivers = Record<string, Partial<Record<string, EventDriver>>>;
