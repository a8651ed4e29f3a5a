import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FlowConfig, FlowStateConfig } from '../../src/domain/flow/types';
import { repositoryRoot } from '../../src/server/flows/check';

/**
 * What a product owner does to drop a step, done by a program: in a copy of a flow file, the
 * state goes, the page before it leads by NEXT to the page after it and that one back by BACK,
 * and the later step counters and the total are one lower. Only JSON changes.
 */

/** The general flow without the workplace (passed early in an application) and the seal choice (reached late). */
export const REMOVED_STEPS = { flow: 'general', states: ['workplace', 'sealLess'] } as const;

function stateOf(flow: FlowConfig, id: string): FlowStateConfig {
  const state = flow.states[id];
  if (!state) throw new Error(`${flow.id} has no state ${id}`);
  return state;
}

export function withoutStep(source: FlowConfig, id: string): FlowConfig {
  const flow = structuredClone(source);
  const removed = stateOf(flow, id);
  const { NEXT: next, BACK: back } = removed.on ?? {};
  if (typeof next !== 'string' || typeof back !== 'string') throw new Error(`${flow.id}.${id} needs a plain NEXT and BACK to be removed`);
  stateOf(flow, back).on = { ...stateOf(flow, back).on, NEXT: next };
  stateOf(flow, next).on = { ...stateOf(flow, next).on, BACK: back };
  const step = removed.meta?.step ?? Number.POSITIVE_INFINITY;
  delete flow.states[id];
  for (const state of Object.values(flow.states)) {
    if (state.meta?.step !== undefined && state.meta.step > step) state.meta.step -= 1;
  }
  flow.meta.totalSteps -= 1;
  return flow;
}

/**
 * Writes a copy of the shipped flows/ into `targetDir` with REMOVED_STEPS dropped, and the
 * product owner's `movedStates` when given (ADR 0032); returns the folder for FLOWS_DIR.
 */
export function writeFlowsWithoutSteps(targetDir: string, movedStates?: Record<string, string>): string {
  mkdirSync(targetDir, { recursive: true });
  cpSync(join(repositoryRoot, 'flows'), targetDir, { recursive: true });
  const file = join(targetDir, `${REMOVED_STEPS.flow}.json`);
  const flow = REMOVED_STEPS.states.reduce(withoutStep, JSON.parse(readFileSync(file, 'utf8')) as FlowConfig);
  if (movedStates) flow.meta.movedStates = movedStates;
  writeFileSync(file, `${JSON.stringify(flow, null, 2)}\n`);
  return targetDir;
}
