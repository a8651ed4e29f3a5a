import type { ComponentType } from 'react';
import type { AnyMachineSnapshot } from 'xstate';
import type { FlowModel } from '../../domain/flow/model';
import type { FlowPage } from '../../domain/flow/types';
import type { FlowEventType, ScreenName } from '../../domain/flow/vocabulary';
import type { ClientSettings } from '../../domain/bank/types';

export interface FlowEvent {
  type: FlowEventType;
  /** Data handed to the next page as navigation state (e.g. the completion number). */
  data?: Record<string, unknown>;
}

/**
 * What an invoked actor (implementations.ts) throws to hand data to the page its failure leads
 * to, as a finished actor hands its output: the runtime passes `data` on as navigation state.
 */
export class FlowFailure extends Error {
  constructor(
    message: string,
    readonly data: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'FlowFailure';
  }
}

/** What every screen of the registry receives from the runtime. */
export interface ScreenProps {
  page: FlowPage;
  flow: FlowModel;
  settings: ClientSettings;
  /** The active state of this page's machine (sub-states such as the e-mail code step live here). */
  snapshot: AnyMachineSnapshot;
  send: (event: FlowEvent) => void;
  /** Data the previous page handed over with its event (navigation state), if any. */
  arrivalData: Record<string, unknown> | undefined;
}

/**
 * The screens the runtime renders, by the name a flow page gives (meta.screen). The runtime is
 * handed one (FlowRouter's `screens`, provided by src/client/main.tsx from
 * src/client/screens/registry.ts), as rjsf is handed its widgets, and never imports screens.
 */
export type ScreenRegistry = Readonly<Record<ScreenName, ComponentType<ScreenProps>>>;

/**
 * The form a page asks (meta.form, schemas/<form>.schema.json). The flow lint makes sure every
 * page whose screen asks a form names one; a page without one here is a bug of ours.
 */
export function formOf(page: FlowPage): string {
  if (page.form === undefined) throw new Error(`page ${page.path} names no form (meta.form)`);
  return page.form;
}

/**
 * Whether the page's machine takes `type` now: a screen offers a way only when the flow's
 * guards let it (the identity-check methods of the day, for one). Snapshots without `can`
 * (a screen drawn outside a running machine) take nothing.
 */
export function canSend(snapshot: AnyMachineSnapshot, type: FlowEventType): boolean {
  return typeof snapshot.can === 'function' && snapshot.can({ type });
}
