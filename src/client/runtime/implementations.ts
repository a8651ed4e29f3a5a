import { fromPromise, type AnyActorLogic } from 'xstate';
import { methodGuards, type ActionName, type ActorName, type GuardName, type MethodGuardName } from '../../domain/flow/vocabulary';
import type { ProviderMethod, VerificationMethod } from '../../domain/identity-check-methods';
import type { ApplicationType } from '../../domain/flow/types';
import type { ClientSettings } from '../../domain/bank/types';
import { EKYC_STATUS, ekycRefusalOf } from '../../domain/ekyc';
import { api } from '../api/client';
import { cookies, session } from '../platform/session';
import { FlowFailure } from './screen';

/**
 * The one implementation of every name a flow file may use. TypeScript's Record over the
 * vocabulary makes a missing implementation a compile error; the flow lint makes an unknown
 * name in JSON a build error.
 */
interface ActionArgs {
  event: { type: string; output?: unknown };
}
interface GuardArgs {
  event: { type: string; output?: unknown };
}

export interface FlowImplementations {
  actions: Record<ActionName, (args: ActionArgs) => void>;
  guards: Record<GuardName, (args: GuardArgs) => boolean>;
  actors: Record<ActorName, AnyActorLogic>;
}

export interface PollInput {
  intervalMs: number;
  maxTries: number;
}

export interface PollProgress {
  tries: number;
  maxTries: number;
}

/**
 * What the poller emits after each try (XState's `emit`): the page's actor holds the poller as
 * its invoked child, and a screen reads the events with the child's `on` (useEmitted).
 */
export const POLL_PROGRESS = 'ekyc.pollProgress';
export interface PollProgressEvent extends PollProgress {
  type: typeof POLL_PROGRESS;
}

function outputOf(event: { output?: unknown }): Record<string, unknown> {
  return event.output && typeof event.output === 'object' ? (event.output as Record<string, unknown>) : {};
}

/** Waits `ms`, or rejects as soon as `signal` aborts (the actor was stopped: the page was left). */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    signal.throwIfAborted();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/** Each method guard holds while the page's day offers its method (ClientSettings). */
function methodGuardsOf(offered: readonly VerificationMethod[]): Record<MethodGuardName, () => boolean> {
  const names = Object.keys(methodGuards) as MethodGuardName[];
  return Object.fromEntries(names.map((name) => [name, () => offered.includes(methodGuards[name])])) as Record<MethodGuardName, () => boolean>;
}

export function createImplementations(settings: ClientSettings): FlowImplementations {
  return {
    actions: {
      clearSessionStorage: () => session.clear(),
      storeBankCode: () => session.set('bankCode', settings.bank.code),
      forgetAuthenticationToken: () => {
        session.remove('authenticationToken');
        session.remove('revision');
      },
      leaveForProvider: ({ event }) => {
        const url = outputOf(event).url;
        if (typeof url === 'string') location.assign(url);
      },
      clearApplicationTraces: () => {
        session.clear();
        cookies.remove('workplace');
        cookies.remove('invitation');
      },
    },
    guards: {
      supplementRequested: ({ event }) => outputOf(event).supplement === true,
      ...methodGuardsOf(settings.identityCheckMethods),
    },
    actors: {
      startEkyc: fromPromise<{ url: string }, { applicationType: ApplicationType; method: ProviderMethod }>(async ({ input }) => {
        session.set('applicationType', input.applicationType);
        return api<{ url: string }>('/ekyc', { method: 'POST', body: { supplement: false, method: input.method } });
      }),
      // XState aborts `signal` when the actor stops (the page was left): the next wait or call ends it.
      pollEkycStatus: fromPromise<{ supplement: boolean }, PollInput, PollProgressEvent>(async ({ input, emit, signal }) => {
        // Tests shorten the interval through server configuration; the flow's value stays the real one.
        const intervalMs = settings.ekycPollIntervalMs ?? input.intervalMs;
        // Like the original's interval timer: each try comes one interval after the previous one.
        for (let tries = 1; tries <= input.maxTries; tries += 1) {
          await sleep(intervalMs, signal);
          const answer = await api<{ status: number; supplement?: boolean }>('/ekyc/status', { method: 'POST', signal });
          const { status } = answer;
          emit({ type: POLL_PROGRESS, tries, maxTries: input.maxTries });
          // Approved: the answer says whether the address document is asked for.
          if (status === EKYC_STATUS.bankerProcessing) return { supplement: answer.supplement === true };
          if (status !== EKYC_STATUS.created && status !== EKYC_STATUS.providerProcessing) {
            // A mismatch goes to the error page with its items, which it names (EkycError).
            const refusal = ekycRefusalOf(answer);
            if (refusal) throw new FlowFailure(`identity check ended with status ${status}`, { ...refusal });
            throw new Error(`identity check ended with status ${status}`);
          }
        }
        throw new Error('identity check did not finish in time');
      }),
      completeApplication: fromPromise<{ applicationNumber: string; applicationCompletedAt: string }>(async () =>
        api('/application-complete', { method: 'POST' }),
      ),
    },
  };
}
