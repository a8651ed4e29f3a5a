import type { ScreenName } from './vocabulary';

export type ApplicationType = 'GENERAL' | 'CHILD';

/** Flow-wide settings kept in the root `meta` of a flow file. */
export interface FlowMeta {
  applicationType: ApplicationType;
  totalSteps: number;
  /** State id of the flow's landing page ("go to re-apply" returns here). */
  landing: string;
  /** State id of the flow's system error page (also used with ?id=1 for a 401). */
  errorState: string;
  /**
   * Old state id → state id of this flow: applicants of an older version at a state this flow
   * removed are moved onto this version and go on at that step (ADR 0032).
   */
  movedStates?: Record<string, string>;
}

/** Per-state `meta` of a flow file. */
export interface StateMeta {
  path?: string;
  screen?: ScreenName;
  /** Step number shown as step/totalSteps. */
  step?: number;
  /**
   * Name of the JSON Schema in schemas/ (without .schema.json) the screen's form uses; a page
   * that asks several forms lists them in the order it posts them.
   */
  form?: string | string[];
  /** May be opened without arriving from a neighbour (landing pages, error pages, provider return). */
  entry?: boolean;
  /** Heading of the page; also the document title. */
  title?: string;
  /** A final state that leaves this flow for a page of another flow. */
  exitTo?: string;
}

/** One routable page of a flow, derived from a top-level state with a path. */
export interface FlowPage {
  flowId: string;
  stateId: string;
  path: string;
  screen: ScreenName;
  step?: number;
  /** The first (or only) form the page asks. */
  form?: string;
  /** Every form the page asks, in the order it posts them (empty for a page without a form). */
  forms: string[];
  entry: boolean;
  title: string;
}

/** A navigation edge between two paths, derived from the machine's own transitions. */
export interface FlowEdge {
  from: string;
  to: string;
  event: string;
}

/** The raw JSON config: XState's own shape plus our meta. Kept loose on purpose: the flow schema validates it. */
export interface FlowStateConfig {
  meta?: StateMeta;
  type?: 'final' | 'parallel' | 'atomic' | 'compound' | 'history';
  initial?: string;
  entry?: unknown;
  exit?: unknown;
  on?: Record<string, unknown>;
  always?: unknown;
  invoke?: unknown;
  states?: Record<string, FlowStateConfig>;
}

export interface FlowConfig {
  $schema?: string;
  id: string;
  meta: FlowMeta;
  initial: string;
  states: Record<string, FlowStateConfig>;
}

/**
 * A flow with its version (a hash of its canonical JSON, computed by the server's flow loader):
 * what the server stores for the applications that run it and writes into the page.
 */
export interface VersionedFlow {
  version: string;
  flow: FlowConfig;
}
