import { expect, test, type Page, type Route } from '@playwright/test';
import type { FlowConfig } from '../../src/domain/flow/types';
import { formsOf } from '../../src/domain/flow/model';
import { isOneOf } from '../../src/domain/flow/vocabulary';
import { chooseProviderOutcome, PROVIDER_PAGES, screenDrivers, type FlowId, type Journey } from '../e2e/drivers';
import type { BankCode } from '../e2e/support';
import { expectationOf, type ScreenExpectation } from './flows';
import { pathWords, type FlowPlan, type PlannedPath } from './plan';
import { visitKey } from './form-visits';
import { stateName, topLevelStateOf, transitionTaken } from './test-machine';
import { actorModels, type InjectedFailure } from './world';
import { accessibilityViolations, type Violation } from './accessibility';

/**
 * Runs one planned path in the browser: each event through the screen drivers
 * (tests/e2e/drivers), each state checked against the screen — its path, heading and step bar.
 * States the app leaves by itself (the callback page while it polls, /redirect) may be on screen
 * for a moment only, so every screen the page shows is recorded as it appears and a state is
 * checked against that record, in order; a state the applicant acts on is also checked live.
 */

interface ScreenRecord {
  path: string;
  heading: string;
  step: string | null;
}

const RECORDER_BINDING = '__modelScreenShown';
const driverFlows: readonly FlowId[] = ['general', 'child'];

/** Records each screen (path, heading, step bar) as the page shows it, across full page loads. */
async function recordScreens(page: Page): Promise<ScreenRecord[]> {
  const records: ScreenRecord[] = [];
  await page.exposeBinding(RECORDER_BINDING, (_source, record: ScreenRecord) => {
    const last = records[records.length - 1];
    if (!last || last.path !== record.path || last.heading !== record.heading || last.step !== record.step) records.push(record);
  });
  await page.addInitScript((binding) => {
    let last = '';
    const report = () => {
      const heading = document.querySelector('main h1')?.textContent;
      if (heading === undefined || heading === null) return;
      const record = { path: location.pathname, heading, step: document.querySelector('[role="progressbar"]')?.textContent ?? null };
      const key = JSON.stringify(record);
      if (key === last) return;
      last = key;
      // Set by exposeBinding; the page's own types cannot know it.
      (window as unknown as Record<string, (r: typeof record) => void>)[binding]?.(record);
    };
    new MutationObserver(report).observe(document, { childList: true, subtree: true, characterData: true });
  }, RECORDER_BINDING);
  return records;
}

function matches(record: ScreenRecord, expected: Extract<ScreenExpectation, { kind: 'page' }>): boolean {
  return record.path === expected.path && record.heading === expected.title && record.step === expected.step;
}

function describeExpectation(expected: ScreenExpectation): string {
  if (expected.kind === 'provider') return `the identity provider's page (${expected.method})`;
  return `${expected.path} 「${expected.title}」${expected.step ? ` ${expected.step}` : ' (no step bar)'}`;
}

/** A request dropped for an injected failure, until the journey is past the failure. */
interface ArmedFailure {
  untilStep: number;
  dropped: Promise<void>;
  disarm: () => Promise<void>;
}

async function armFailure(page: Page, failure: InjectedFailure, untilStep: number): Promise<ArmedFailure> {
  let signal: () => void = () => undefined;
  const dropped = new Promise<void>((resolve) => (signal = resolve));
  const matcher = (url: URL) => url.pathname === failure.path;
  // Every such request fails while armed, as with a lost connection: the page that walks into
  // a state with an invoked actor starts the actor too, before the runtime opens that state's
  // page, which starts it again (src/client/runtime/FlowRouter.tsx), so it can be sent twice.
  const handler = async (route: Route) => {
    if (route.request().method() !== failure.method) return route.fallback();
    await route.abort('internetdisconnected');
    signal();
  };
  await page.route(matcher, handler);
  return { untilStep, dropped, disarm: () => page.unroute(matcher, handler) };
}

export interface JourneyRun {
  plan: FlowPlan;
  path: PlannedPath;
  /** Every flow the server runs (an exit state lands on another flow's page). */
  flows: FlowConfig[];
  bank: BankCode;
  /** The server's base URL (any bank host): the journey uses its port. */
  baseURL: string;
}

export function journeyTitle(label: string, plan: FlowPlan, path: PlannedPath): string {
  return `${label}: ${pathWords(plan.testFlow, path)}`;
}

export async function runJourney(page: Page, run: JourneyRun): Promise<void> {
  const { plan, path, flows, bank } = run;
  const { testFlow } = plan;
  const flowId = testFlow.flow.id;
  if (!isOneOf(driverFlows, flowId)) throw new Error(`the screen drivers know the flows ${driverFlows.join(' and ')}, not ${flowId}`);
  const journey: Journey = { page, bank, flow: flowId, memo: {} };
  const origin = `http://${bank}.localhost:${new URL(run.baseURL).port}`;
  const records = await recordScreens(page);
  const words = pathWords(testFlow, path);
  const armed: ArmedFailure[] = [];
  const violations: Violation[] = [];
  let cursor = 0;

  const checkState = async (index: number) => {
    const state = path.steps[index]?.state;
    if (!state) return;
    const expected = expectationOf(testFlow, flows, state);
    if (expected.kind === 'provider') {
      const provider = PROVIDER_PAGES[expected.method];
      if (!provider) throw new Error(`tests/e2e/drivers knows no provider page for ${expected.method}`);
      await expect.poll(() => provider.url.test(new URL(page.url()).pathname), { message: describeExpectation(expected) }).toBe(true);
      return;
    }
    const shown = () => records.findIndex((record, i) => i >= cursor && matches(record, expected));
    try {
      await expect.poll(shown, { message: `${describeExpectation(expected)} shown` }).toBeGreaterThanOrEqual(0);
    } catch (error) {
      const seen = records.slice(cursor).map((r) => `${r.path} 「${r.heading}」${r.step ? ` ${r.step}` : ''}`);
      throw new Error(`expected ${describeExpectation(expected)}; the screens shown since the previous state: ${seen.join(', ') || 'none'}`, { cause: error });
    }
    cursor = shown();
    if (expected.stable) {
      await expect.poll(() => new URL(page.url()).pathname, { message: 'still on the page' }).toBe(expected.path);
      await expect(page.locator('main h1')).toHaveText(expected.title);
      await expect(page).toHaveTitle(new RegExp(`^${expected.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\| `));
      // Once the screen has settled (nothing loading), as the applicant meets it.
      await expect(page.getByRole('status').filter({ hasText: '読み込み中です' })).toHaveCount(0);
      violations.push(...(await accessibilityViolations(page, `${bank} ${expected.path}`)));
    }
  };

  /** Arms the failures of the actors that answer right after this step (an applicant cannot cause them). */
  const armFollowingFailures = async (index: number): Promise<Promise<void>[]> => {
    const drops: Promise<void>[] = [];
    for (let next = index + 1; next < path.steps.length; next++) {
      const step = path.steps[next];
      const before = path.steps[next - 1]?.state;
      const taken = step && before ? transitionTaken(testFlow, before, step.event) : undefined;
      if (!taken || (taken.kind !== 'actor' && taken.kind !== 'automatic')) break;
      const failure = taken.actor?.result === 'error' ? actorModels[taken.actor.name].injectedFailure : undefined;
      if (!failure) continue;
      const arm = await armFailure(page, failure, next);
      armed.push(arm);
      drops.push(arm.dropped);
    }
    return drops;
  };

  const perform = async (index: number) => {
    const step = path.steps[index];
    const before = path.steps[index - 1]?.state;
    if (!step || !before) return;
    const taken = transitionTaken(testFlow, before, step.event);
    if (!taken) throw new Error(`${step.event.type} is not possible in ${stateName(flowId, before)}`);
    let action: () => Promise<void>;
    if (taken.kind === 'actor' || taken.kind === 'automatic') return; // the app does it by itself
    if (taken.kind === 'provider' && taken.outcome) {
      const outcome = taken.outcome;
      action = () => chooseProviderOutcome(journey, outcome);
    } else {
      const meta = testFlow.flow.states[topLevelStateOf(before)]?.meta;
      const screen = meta?.screen;
      const driver = screen && taken.flowEvent ? screenDrivers[screen]?.[taken.flowEvent] : undefined;
      if (!driver) throw new Error(`no screen driver for ${screen ?? '(no screen)'} ${taken.flowEvent ?? step.event.type} in tests/e2e/drivers`);
      // The page's form, for the generic form step's drivers, and which visit of it this is (its samples' variant).
      const journeyIndex = plan.paths.indexOf(path);
      const context = meta?.form === undefined ? {} : { form: formsOf(meta.form)[0], pageForms: formsOf(meta.form), visit: plan.formVisits.get(visitKey(journeyIndex, index)), journeyIndex };
      action = () => driver(journey, context);
    }
    const drops = await armFollowingFailures(index);
    const acting = action();
    if (drops.length === 0) return acting;
    // The action may wait for the success its dropped request never brings: done once the request is sent.
    acting.catch(() => undefined);
    await Promise.race([acting, Promise.all(drops)]);
  };

  for (let index = 0; index < path.steps.length; index++) {
    const step = path.steps[index];
    if (!step) continue;
    const before = path.steps[index - 1]?.state;
    const label =
      index === 0
        ? `open ${stateName(flowId, step.state)}`
        : `${index}. ${stateName(flowId, before ?? step.state)} —${step.event.type}→ ${stateName(flowId, step.state)}`;
    try {
      await test.step(label, async () => {
        if (index === 0) {
          const first = expectationOf(testFlow, flows, step.state);
          if (first.kind !== 'page') throw new Error('a journey starts on a page of the app');
          await page.goto(`${origin}${first.path}`);
        } else {
          await perform(index);
        }
        await checkState(index);
        for (const arm of armed.filter((a) => a.untilStep <= index)) {
          armed.splice(armed.indexOf(arm), 1);
          await arm.disarm();
        }
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(`${flowId} journey (bank ${bank}) failed at step ${label}\npath: ${words}\n${message}`, { cause: error });
    }
  }
  // WCAG 2.x A and AA (axe-core) on every screen this journey met first in its worker.
  expect(violations, `accessibility violations (axe-core): ${violations.length}`).toEqual([]);
}
