import { screen, waitFor } from '@testing-library/react';
import { expect, vi, type Mock } from 'vitest';
import { createElement, type ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { AnyMachineSnapshot } from 'xstate';
import bank0177 from '../../banks/0177/bank.json';
import bank0587 from '../../banks/0587/bank.json';
import bank0181 from '../../banks/0181/bank.json';
import child from '../../flows/child.json';
import general from '../../flows/general.json';
import { toPublicBankConfig, type BankConfig, type ClientSettings } from '../../src/domain/bank/types';
import { methodsOfferedAt } from '../../src/domain/identity-check-methods';
import { describeFlow, type FlowModel } from '../../src/domain/flow/model';
import type { FlowConfig } from '../../src/domain/flow/types';
import type { FlowEvent, ScreenProps } from '../../src/client/runtime/screen';
import { messages } from '../../src/domain/messages';
import { TEST_IDENTITY_CHECK_DAY } from '../support/identity-check-day';

/** The flows as the runtime reads them (the flow lint vouches for the JSON shape). */
export const generalFlow: FlowModel = describeFlow(general as unknown as FlowConfig);
export const childFlow: FlowModel = describeFlow(child as unknown as FlowConfig);

/** The page settings of `bank` as a test server serves them (the methods of TEST_IDENTITY_CHECK_DAY). */
export function settingsFor(bank: BankConfig = bank0177 as BankConfig): ClientSettings {
  return {
    bank: toPublicBankConfig(bank),
    analyticsMeasurementId: null,
    ekycPollIntervalMs: null,
    session: { idleMs: 30 * 60_000, warningMs: 2 * 60_000 },
    production: false,
    identityCheckMethods: methodsOfferedAt(bank.identityCheckMethods, TEST_IDENTITY_CHECK_DAY),
  };
}
export const bank0587Settings = (): ClientSettings => settingsFor(bank0587 as BankConfig);
export const bank0181Settings = (): ClientSettings => settingsFor(bank0181 as BankConfig);

/** A stand-in snapshot whose `can` answers `takes(event type)`: what a screen asks of its guards. */
export function snapshotTaking(takes: (type: string) => boolean, extra: Record<string, unknown> = {}): AnyMachineSnapshot {
  return { can: (event: { type: string }) => takes(event.type), ...extra } as unknown as AnyMachineSnapshot;
}

/** ScreenProps for one page of either flow (found by its path); `send` is a spy. */
export function screenProps(path: string, overrides: Partial<ScreenProps> = {}): ScreenProps & { send: Mock<(event: FlowEvent) => void> } {
  const flow = [generalFlow, childFlow].find((model) => model.pageByPath.has(path));
  const page = flow?.pageByPath.get(path);
  if (!flow || !page) throw new Error(`no page at ${path}`);
  const send = vi.fn<(event: FlowEvent) => void>();
  return {
    page,
    flow,
    settings: settingsFor(),
    // A machine that takes every event (its guards all hold); tests of a refused event pass their own.
    snapshot: snapshotTaking(() => true),
    arrivalData: undefined,
    ...overrides,
    send,
  };
}

/** Shows where the screen navigated to on its own (e.g. /error after a failed call). */
function WhereAmI() {
  const location = useLocation();
  return createElement('p', { 'data-testid': 'location' }, `${location.pathname}${location.search}`);
}

/** The screen at `url` inside a memory router, with a stand-in for the error page. */
export function inRouter(url: string, element: ReactElement): ReactElement {
  const path = new URL(url, 'http://localhost').pathname;
  return createElement(
    MemoryRouter,
    { initialEntries: [url] },
    createElement(
      Routes,
      null,
      createElement(Route, { path, element }),
      createElement(Route, { path: '*', element: createElement(WhereAmI) }),
    ),
  );
}

/** A tiny API tier: answers by method and path, records the calls, 404 for anything unknown. */
export type Handler = (request: { method: string; path: string }) => Response | Promise<Response>;

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** What a stubbed fetch was asked: the URL, the method and `METHOD /path` to match on. */
export function requestOf(input: RequestInfo | URL, init?: RequestInit): { url: URL; method: string; route: string } {
  const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  return { url, method, route: `${method} ${url.pathname}` };
}

export function fakeApi(routes: Record<string, Handler>) {
  const calls: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const { url, method, route } = requestOf(input, init);
    calls.push(route);
    const handler = routes[route];
    return handler ? handler({ method, path: url.pathname }) : json({ message: 'not found' }, 404);
  });
  vi.stubGlobal('fetch', fetch);
  return { fetch, calls };
}

/** Real user agents of the devices the tests pretend to be. */
export const userAgents = {
  iPhoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  iPhoneLine:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/14.9.0',
  desktopChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
} as const;

export function pretendUserAgent(userAgent: string): void {
  vi.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(userAgent);
}

/**
 * A step refused because the PIN is set: the server's message in an alert that holds the focus,
 * nothing sent to the flow, and no navigation (the router would show where it went instead).
 */
export async function expectStepLockAlert(send: Mock<(event: FlowEvent) => void>): Promise<void> {
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toBe(messages.stepsLockedAfterPin);
  await waitFor(() => expect(document.activeElement).toBe(alert));
  expect(send).not.toHaveBeenCalled();
  expect(screen.queryByTestId('location')).toBeNull();
}

/** The bank's occupations as GET /api/occupations answers them (その他 first by number, one for children only). */
export const OCCUPATIONS = [
  { id: 1, name: '会社員', displayNumber: 10, generalDisplay: true, childDisplay: true, minDisplayAge: 15, maxDisplayAge: null, workplaceRequired: true },
  { id: 9, name: 'その他', displayNumber: 5, generalDisplay: true, childDisplay: true, minDisplayAge: null, maxDisplayAge: null, workplaceRequired: false },
  { id: 6, name: '学生', displayNumber: 60, generalDisplay: true, childDisplay: true, minDisplayAge: null, maxDisplayAge: null, workplaceRequired: false },
  { id: 2, name: '公務員', displayNumber: 20, generalDisplay: true, childDisplay: false, minDisplayAge: 18, maxDisplayAge: null, workplaceRequired: true },
  { id: 10, name: '未就学児', displayNumber: 70, generalDisplay: false, childDisplay: true, minDisplayAge: 0, maxDisplayAge: 6, workplaceRequired: false },
];
