import { setup, type AnyStateMachine } from 'xstate';
import type { FlowModel } from '../../domain/flow/model';
import type { FlowImplementations } from './implementations';

/**
 * The flow's machine, started at the page the URL names. The URL is the source of truth for
 * where the applicant is (so a reload or the back button keeps working); entering the state
 * runs its entry actions and invocations exactly as if the machine had walked there.
 */
export function machineAt(model: FlowModel, stateId: string, implementations: FlowImplementations): AnyStateMachine {
  const { $schema: _schema, ...config } = model.config;
  // Only this page's state is live. Another page's state is reached here just to learn where to
  // navigate: its entry actions and invocations run once, in that page's own actor (otherwise a
  // completion request would go out twice, once from each page).
  const states = Object.fromEntries(
    Object.entries(config.states).map(([id, state]) => [id, id === stateId ? state : { type: state.type, meta: state.meta }]),
  );
  const machineSetup = setup({
    actions: implementations.actions,
    guards: implementations.guards,
    actors: implementations.actors,
  });
  // The JSON is XState's own config format, checked by the flow lint against flow.schema.json
  // and the vocabulary; TypeScript cannot see through JSON, hence the cast.
  type Config = Parameters<typeof machineSetup.createMachine>[0];
  return machineSetup.createMachine({ ...config, states, initial: stateId } as unknown as Config);
}

/** The top-level state a snapshot value is in: that state owns the page. */
export function topLevelState(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') return Object.keys(value)[0];
  return undefined;
}
