import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { FlowConfig, FlowStateConfig } from '../../src/domain/flow/types';
import { repositoryRoot, shippedFlowFiles } from '../../src/server/flows/check';

/**
 * What a product owner does to reorder two steps, done by a program: in a copy of a flow file,
 * the step `first` (followed by `second`) comes after it instead. Only JSON changes: the NEXT
 * and BACK transitions around the two steps and their step counters.
 */

/** The target of a transition written as "name" or { "target": "name", … }. */
function targetOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && !Array.isArray(value) && typeof (value as { target?: unknown }).target === 'string') {
    return (value as { target: string }).target;
  }
  return undefined;
}

/** The same transition pointed at another state (keeping its actions). */
function retarget(value: unknown, target: string): unknown {
  if (typeof value === 'string') return target;
  return { ...(value as object), target };
}

function stateOf(flow: FlowConfig, id: string): FlowStateConfig {
  const state = flow.states[id];
  if (!state) throw new Error(`${flow.id} has no state ${id}`);
  return state;
}

/** Points `from`'s `event` at `to` when it currently targets `was` (a plain sibling name). */
function repoint(flow: FlowConfig, from: string, event: string, was: string, to: string): void {
  const on = stateOf(flow, from).on ?? {};
  if (targetOf(on[event]) !== was) throw new Error(`${flow.id}.${from} ${event} does not lead to ${was}`);
  on[event] = retarget(on[event], to);
}

export function swapAdjacentSteps(source: FlowConfig, first: string, second: string): FlowConfig {
  const flow = structuredClone(source);
  const before = targetOf(stateOf(flow, first).on?.BACK);
  const after = targetOf(stateOf(flow, second).on?.NEXT);
  if (!before || !after) throw new Error(`${flow.id}: ${first} needs a BACK and ${second} a NEXT to be swapped`);
  repoint(flow, before, 'NEXT', first, second);
  repoint(flow, first, 'NEXT', second, after);
  repoint(flow, first, 'BACK', before, second);
  repoint(flow, second, 'NEXT', after, first);
  repoint(flow, second, 'BACK', first, before);
  repoint(flow, after, 'BACK', second, first);
  const firstMeta = stateOf(flow, first).meta ?? {};
  const secondMeta = stateOf(flow, second).meta ?? {};
  [firstMeta.step, secondMeta.step] = [secondMeta.step, firstMeta.step];
  // The file reads in the new order too.
  flow.states = Object.fromEntries(
    Object.entries(flow.states).map(([id, state], _index, all) => {
      if (id === first) return all.find(([other]) => other === second) as [string, FlowStateConfig];
      if (id === second) return all.find(([other]) => other === first) as [string, FlowStateConfig];
      return [id, state];
    }),
  );
  return flow;
}

/** The edit the "editing a flow without code" test makes: seal-less before branch in the general flow. */
export const SWAPPED_STEPS = { flow: 'general', first: 'branch', second: 'sealLess' } as const;

/** The bank of the edited copy's first journey (plan.ts planFlow): other banks than the shipped flow's journeys of the same index. */
export const EDITED_COPY_FIRST_BANK = 0;

/**
 * Writes a copy of the shipped flow folder into `targetDir` with SWAPPED_STEPS applied, as a
 * product owner's edited folder for FLOWS_DIR. Returns the files written.
 */
export function writeSwappedFlows(targetDir: string, flowsDir = join(repositoryRoot, 'flows')): string[] {
  mkdirSync(targetDir, { recursive: true });
  copyFileSync(join(flowsDir, 'flow.schema.json'), join(targetDir, 'flow.schema.json'));
  return shippedFlowFiles(flowsDir).map((file) => {
    const flow = JSON.parse(readFileSync(file, 'utf8')) as FlowConfig;
    const edited = flow.id === SWAPPED_STEPS.flow ? swapAdjacentSteps(flow, SWAPPED_STEPS.first, SWAPPED_STEPS.second) : flow;
    const target = join(targetDir, basename(file));
    writeFileSync(target, `${JSON.stringify(edited, null, 2)}\n`);
    return target;
  });
}
