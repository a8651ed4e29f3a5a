import { expect, test, type Page } from '@playwright/test';
import type { FlowConfig } from '../../src/domain/flow/types';
import type { BankCode } from '../e2e/support';
import { loadFlows } from './flows';
import { deriveTestFlow, type TestFlow } from './test-machine';

/**
 * The navigation guard, generated from the machines: every page that is not an entry page,
 * opened by its URL, lands on its flow's error page; so does an in-app arrival from any page
 * with no transition into it. An in-app arrival is what React Router does: the history entry
 * carries { usr: { from } } (src/client/runtime/FlowRouter.tsx reads `from`) and a popstate
 * makes the router read it, so hundreds of arrivals run in one page without reloading.
 */
const flows = loadFlows();
const testFlows = flows.map(deriveTestFlow);

interface AppPage {
  flowId: string;
  stateId: string;
  path: string;
  title: string;
  entry: boolean;
}

const pages: AppPage[] = flows.flatMap((flow) =>
  Object.entries(flow.states).flatMap(([stateId, state]) =>
    state.meta?.path ? [{ flowId: flow.id, stateId, path: state.meta.path, title: state.meta.title ?? '', entry: state.meta.entry === true }] : [],
  ),
);

/** Where each top-level state's transitions land: its page, or the page an exit state leaves for. */
function pathOfState(flow: FlowConfig, stateId: string): string | undefined {
  const meta = flow.states[stateId]?.meta;
  return meta?.path ?? meta?.exitTo;
}

/**
 * Allowed arrivals read from the test machines' own transitions (not from the app's
 * src/domain/flow/model.ts): to path → the paths with a transition into it. Guards do not
 * matter here: the app's guard reads the flow, not the application.
 */
function allowedArrivals(list: TestFlow[]): Map<string, Set<string>> {
  const allowed = new Map<string, Set<string>>();
  for (const { flow, machine, transitions } of list) {
    for (const t of transitions) {
      if (t.kind === 'provider') continue; // the provider sends the browser to an entry page
      const source = machine.getStateNodeById(t.source);
      const from = pathOfState(flow, source.path[0] ?? '');
      for (const definition of source.transitions.get(t.event) ?? []) {
        for (const target of definition.target ?? []) {
          const to = pathOfState(flow, target.path[0] ?? '');
          if (!from || !to || target.path[0] === source.path[0]) continue;
          allowed.set(to, new Set([...(allowed.get(to) ?? []), from]));
        }
      }
    }
  }
  return allowed;
}

const arrivals = allowedArrivals(testFlows);
const banks: Record<string, BankCode> = { general: '0587', child: '0181' };

interface Arrival {
  to: string;
  toTitle: string;
  from: string | null;
}

/** In-app arrivals, one after the other in the page: where each landed, and whether the page itself was ever shown. */
async function arriveInApp(page: Page, list: Arrival[]): Promise<Array<Arrival & { landed: string; shown: boolean }>> {
  return page.evaluate(async (cases) => {
    const results = [];
    for (const arrival of cases) {
      let shown = false;
      // Settles once the page itself is shown, or at the first screen rendered away from its path.
      const landed = await new Promise<string>((resolve) => {
        const observer = new MutationObserver(() => {
          const heading = document.querySelector('main h1')?.textContent;
          if (location.pathname === arrival.to && heading === arrival.toTitle) shown = true;
          if (shown || (location.pathname !== arrival.to && heading)) settle();
        });
        const timer = setTimeout(() => settle(), 2000);
        function settle() {
          observer.disconnect();
          clearTimeout(timer);
          resolve(location.pathname);
        }
        observer.observe(document, { childList: true, subtree: true, characterData: true });
        const index = Number((history.state as { idx?: number } | null)?.idx ?? 0) + 1;
        history.pushState({ usr: arrival.from === null ? null : { from: arrival.from }, key: `model${index}`, idx: index }, '', arrival.to);
        dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
      });
      results.push({ ...arrival, landed, shown });
    }
    return results;
  }, list);
}

for (const flow of flows) {
  const own = pages.filter((p) => p.flowId === flow.id);
  const guarded = own.filter((p) => !p.entry);
  const errorPage = own.find((p) => p.stateId === flow.meta.errorState);
  const bank = banks[flow.id] ?? '0177';

  test(`${flow.id}: each of its ${guarded.length} step pages, opened directly or from a page that does not lead to it, lands on ${errorPage?.path ?? '(no error page)'}`, async ({ page, baseURL }) => {
    if (!errorPage) throw new Error(`${flow.id} has no error page (meta.errorState ${flow.meta.errorState})`);
    const origin = `http://${bank}.localhost:${new URL(baseURL ?? '').port}`;
    const onErrorPage = async () => {
      await expect.poll(() => new URL(page.url()).pathname).toBe(errorPage.path);
      await expect(page.locator('main h1')).toHaveText(errorPage.title);
    };

    for (const target of guarded) {
      await test.step(`direct visit to ${target.path}`, async () => {
        await page.goto(`${origin}${target.path}`);
        await onErrorPage();
      });
    }

    // The arrival state works: from a page with a transition into it, a page opens (so the refusals below are the guard's).
    const control = guarded.find((p) => (arrivals.get(p.path)?.size ?? 0) > 0);
    const controlFrom = control ? [...(arrivals.get(control.path) ?? [])][0] : undefined;
    if (!control || !controlFrom) throw new Error(`${flow.id}: no step page with an allowed arrival to check the arrivals against`);
    await test.step(`in-app arrival at ${control.path} from ${controlFrom} opens it`, async () => {
      await page.goto(`${origin}${errorPage.path}`);
      await onErrorPage();
      const [result] = await arriveInApp(page, [{ to: control.path, toTitle: control.title, from: controlFrom }]);
      expect(result?.shown, `${control.path} shown when arriving from ${controlFrom}`).toBe(true);
    });

    const cases: Arrival[] = guarded.flatMap((target) => {
      const allowed = arrivals.get(target.path) ?? new Set<string>();
      const froms = [null, ...pages.map((p) => p.path)].filter((from) => from === null || !allowed.has(from));
      return froms.map((from) => ({ to: target.path, toTitle: target.title, from }));
    });
    await test.step(`${cases.length} in-app arrivals from pages with no transition into the page`, async () => {
      await page.goto(`${origin}${errorPage.path}`);
      await onErrorPage();
      const results = await arriveInApp(page, cases);
      const wrong = results
        .filter((r) => r.landed !== errorPage.path || r.shown)
        .map((r) => `${r.to} from ${r.from ?? '(nowhere)'}: ${r.shown ? 'the page was shown, then ' : ''}landed on ${r.landed}`);
      expect(wrong).toEqual([]);
      expect(results).toHaveLength(cases.length);
    });
  });
}
