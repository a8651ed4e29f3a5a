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
  const machineSetup = setup({
    actions: implementations.actions,
    guards: implementations.guards,
    actors: implementations.actors,
  });
  // The JSON is XState's own config format, checked by the flow lint against flow.schema.json
  // and the vocabulary; TypeScript cannot see through JSON, hence the cast.
  type Config = Parameters<typeof machineSetup.createMachine>[0];
  return machineSetup.createMachine({ ...config, initial: stateId } as unknown as Config);
}

/** The top-level state a snapshot value is in: that state owns the page. */
export function topLevelState(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') return Object.keys(value)[0];
  return undefined;
}
