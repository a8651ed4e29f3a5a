import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getInitialSnapshot, getNextSnapshot } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { FlowConfig } from '../../src/domain/flow/types';
import { formatProblem } from '../../src/flow-tools/lint';
import { checkFlowFiles, repositoryRoot } from '../../src/server/flows/check';
import { loadFlows } from '../model/flows';
import { assertValidPath, computeCoverage, pathWords, planFlow, planMissesNothingReachable, type FlowPlan } from '../model/plan';
import { SWAPPED_STEPS, swapAdjacentSteps, writeSwappedFlows } from '../model/swap';
import { enabledEvents, stateName, transitionTaken } from '../model/test-machine';

/** The plans of tests/model, without a browser: what they cover and that they are real paths. */

const flows = loadFlows();
const plans = new Map<string, FlowPlan>(flows.map((flow) => [flow.id, planFlow(flow)]));
const general = flows.find((flow) => flow.id === 'general') as FlowConfig;

const uncoveredReachable = (plan: FlowPlan) =>
  [plan.coverage.states, plan.coverage.transitions, plan.coverage.providerOutcomes].flatMap((count) =>
    count.uncovered.filter((item) => item.reason.startsWith('reachable')).map((item) => item.name),
  );

describe.each(flows.map((flow) => flow.id))('the plan of %s', (flowId) => {
  const plan = plans.get(flowId) as FlowPlan;

  it('enters every state and takes every transition a journey can reach', () => {
    expect(uncoveredReachable(plan)).toEqual([]);
    expect(planMissesNothingReachable(plan)).toBe(true);
    const { states, transitions } = plan.coverage;
    // What stays uncovered is named with the reason no journey can take it.
    expect(states.covered + states.uncovered.length).toBe(states.total);
    expect(transitions.covered + transitions.uncovered.length).toBe(transitions.total);
    for (const item of [...states.uncovered, ...transitions.uncovered]) expect(item.reason).not.toBe('');
  });

  it('is made of paths the machine allows, step by step', () => {
    expect(plan.paths.length).toBeGreaterThan(0);
    for (const path of plan.paths) expect(() => assertValidPath(plan.testFlow, path)).not.toThrow();
  });

  it('needs each of its journeys: without any one, something reachable goes uncovered', () => {
    plan.paths.forEach((_path, index) => {
      const without = computeCoverage(plan.testFlow, plan.paths.filter((_p, i) => i !== index));
      expect(uncoveredReachable({ ...plan, coverage: without }), pathWords(plan.testFlow, plan.paths[index] as never)).not.toEqual([]);
    });
  });

  it('takes a page’s own events from its last inner step only (the e-mail code, not the address)', () => {
    for (const path of plan.paths) {
      for (const step of path.steps.slice(1)) {
        if (step.event.type !== 'NEXT') continue;
        const index = path.steps.indexOf(step);
        const before = path.steps[index - 1]?.state;
        if (before && stateName(flowId, before).startsWith('verification.')) expect(stateName(flowId, before)).toBe('verification.code');
      }
    }
  });
});

describe('the check of a path', () => {
  it('refuses a path with a step the machine does not allow', () => {
    const plan = plans.get('general') as FlowPlan;
    const [path] = plan.paths;
    if (!path) throw new Error('no path');
    // Drop the e-mail step: NEXT on the address is not a step a journey can take.
    const broken = { ...path, steps: [path.steps[0], ...path.steps.slice(3)] as typeof path.steps };
    expect(() => assertValidPath(plan.testFlow, broken)).toThrow(/step 1/);
  });
});

describe('a deliberately broken copy of general.json', () => {
  it('shows a new state and its transition, which nothing enters, as uncovered by name', () => {
    const copy = structuredClone(general);
    copy.states.orphan = {
      meta: { path: '/orphan', screen: 'Complete', title: '孤立したページ' },
      on: { NEXT: 'confirmation' },
    };
    const plan = planFlow(copy);
    const original = plans.get('general') as FlowPlan;
    expect(plan.coverage.states.total).toBe(original.coverage.states.total + 1);
    expect(plan.coverage.states.covered).toBe(original.coverage.states.covered);
    expect(plan.coverage.states.uncovered.map((u) => u.name)).toContain('orphan');
    expect(plan.coverage.transitions.uncovered.map((u) => u.name)).toContain('orphan —NEXT→ confirmation');
  });

  it('covers a new reachable step without a new journey when the tour can take it', () => {
    const copy = structuredClone(general);
    // A way back from the upload error page to the upload page: a new transition the tour must take.
    copy.states.supplementError = { ...copy.states.supplementError, on: { ...copy.states.supplementError?.on, BACK: 'supplement' } };
    const plan = planFlow(copy);
    expect(plan.coverage.transitions.total).toBe((plans.get('general') as FlowPlan).coverage.transitions.total + 1);
    expect(uncoveredReachable(plan)).toEqual([]);
    expect(plan.coverage.transitions.uncovered.map((u) => u.name)).not.toContain('supplementError —BACK→ supplement');
  });
});

describe('the hand-over to the identity provider', () => {
  // The engine's test flow (tests/fixtures/flows), whose way to the identity check is known.
  const fixture = loadFlows(fileURLToPath(new URL('../fixtures/flows/', import.meta.url))).find((flow) => flow.id === 'general') as FlowConfig;
  const { testFlow } = planFlow(fixture);
  const toPreparation = ['NEXT', 'CODE_SENT', 'NEXT', 'NEXT', 'NEXT', 'NEXT', 'NEXT', 'NEXT', 'NEXT'];
  /** At the provider's page after the start event of a method. */
  function atProvider(start: 'START_EKYC [photoIdOffered]' | 'START_JPKI [jpkiOffered]') {
    let snapshot = getInitialSnapshot(testFlow.machine);
    for (const type of [...toPreparation, start, 'startEkyc.done']) snapshot = getNextSnapshot(testFlow.machine, snapshot, { type });
    expect(stateName('general', snapshot)).toBe('ekycPreparation.leaving');
    return snapshot;
  }
  /** The events possible on the callback page after choosing an outcome on the provider's page. */
  function afterOutcome(outcome: string, start: Parameters<typeof atProvider>[0] = 'START_EKYC [photoIdOffered]'): string[] {
    const snapshot = getNextSnapshot(testFlow.machine, atProvider(start), { type: outcome });
    expect(stateName('general', snapshot)).toBe('ekycCallback');
    return enabledEvents(testFlow, snapshot).map((e) => e.type);
  }

  it('makes the outcome chosen there decide the poll’s answer', () => {
    expect(afterOutcome('approve')).toEqual(['pollEkycStatus.done']);
    expect(afterOutcome('supplement')).toEqual(['pollEkycStatus.done [supplementRequested]']);
    for (const outcome of ['reject', 'pending', 'error']) expect(afterOutcome(outcome)).toEqual(['pollEkycStatus.error']);
    // JPKI: the card of the person entered is approved; another person's is rejected.
    expect(afterOutcome('jpkiSamePerson', 'START_JPKI [jpkiOffered]')).toEqual(['pollEkycStatus.done']);
    expect(afterOutcome('jpkiOtherPerson', 'START_JPKI [jpkiOffered]')).toEqual(['pollEkycStatus.error']);
  });

  it('offers the outcomes of the page of the method started: the simulator’s after START_EKYC, the OpenID stand-in’s after START_JPKI', () => {
    const offered = (start: Parameters<typeof atProvider>[0]) => enabledEvents(testFlow, atProvider(start)).map((e) => e.type);
    expect(offered('START_EKYC [photoIdOffered]')).toEqual(['approve', 'supplement', 'reject', 'pending', 'error']);
    expect(offered('START_JPKI [jpkiOffered]')).toEqual(['jpkiSamePerson', 'jpkiOtherPerson']);
  });

  it('offers the supplement outcome only to a flow that handles it', () => {
    expect(testFlow.outcomes).toContain('supplement');
    expect((plans.get('child') as FlowPlan).testFlow.outcomes).not.toContain('supplement');
  });

  it('offers only the outcomes of the methods a flow starts', () => {
    const copy = structuredClone(fixture);
    const preparation = copy.states.ekycPreparation as { states: Record<string, { on?: Record<string, unknown> }> };
    // Without its JPKI start, the flow meets no outcome of the OpenID stand-in.
    delete preparation.states.ready?.on?.START_JPKI;
    delete preparation.states.startingJpki;
    expect(planFlow(copy).testFlow.outcomes).toEqual(['approve', 'supplement', 'reject', 'pending', 'error']);
  });

  it('ends each journey on a page waiting for the applicant or a final page, never while the app polls', () => {
    for (const plan of plans.values()) {
      for (const path of plan.paths) {
        const last = path.steps[path.steps.length - 1]?.state;
        if (!last || last.status !== 'active') continue;
        const kinds = enabledEvents(plan.testFlow, last).map((e) => transitionTaken(plan.testFlow, last, e)?.kind);
        expect(kinds.some((kind) => kind === 'user' || kind === 'provider'), pathWords(plan.testFlow, path)).toBe(true);
      }
    }
  });
});

describe('the swap test’s copy (seal-less before branch)', () => {
  it('passes the flow lint, and its journeys take seal-less before branch with swapped step counters', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kouza-swap-unit-'));
    try {
      writeSwappedFlows(dir);
      const result = checkFlowFiles([], repositoryRoot, dir);
      expect(result.problems.map(formatProblem)).toEqual([]);
      const copy = result.flows.find((flow) => flow.id === SWAPPED_STEPS.flow) as FlowConfig;
      expect(copy).toEqual(swapAdjacentSteps(general, SWAPPED_STEPS.first, SWAPPED_STEPS.second));
      expect(copy.states.sealLess?.meta?.step).toBe(general.states.branch?.meta?.step);
      expect(copy.states.branch?.meta?.step).toBe(general.states.sealLess?.meta?.step);
      const plan = planFlow(copy);
      expect(uncoveredReachable(plan)).toEqual([]);
      for (const path of plan.paths) {
        const words = pathWords(plan.testFlow, path);
        if (words.includes('branch')) expect(words.indexOf('—NEXT→ sealLess')).toBeLessThan(words.indexOf('—NEXT→ branch'));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
