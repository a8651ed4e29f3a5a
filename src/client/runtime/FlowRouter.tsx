import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { createActor, type AnyActorRef, type AnyMachineSnapshot, type InspectionEvent } from 'xstate';
import type { ClientSettings } from '../../domain/bank/types';
import type { FlowModel } from '../../domain/flow/model';
import { errorPathOf, isArrivalAllowed } from '../../domain/flow/model';
import { isResumeArrival } from '../../domain/flow/resume';
import { isResumeJourney } from './resume';
import type { FlowPage } from '../../domain/flow/types';
import { setUnauthorizedHandler } from '../api/client';
import { SaveForLater } from './SaveForLater';
import { SessionTimeoutWarning } from './SessionTimeoutWarning';
import { createAnalyticsSink } from '../platform/analytics';
import { Layout } from '../ui/Layout';
import { createImplementations, type FlowImplementations } from './implementations';
import { machineAt, topLevelState } from './machine';
import { FlowFailure, type FlowEvent, type ScreenRegistry } from './screen';

/** What a page hands to the next one through the history entry (survives a reload). */
export interface NavigationState {
  from?: string;
  data?: Record<string, unknown>;
}

function navigationStateOf(value: unknown): NavigationState {
  return value && typeof value === 'object' ? (value as NavigationState) : {};
}

const LANDING_FALLBACK = '/term';

export interface FlowRouterProps {
  settings: ClientSettings;
  models: FlowModel[];
  /** The screens pages name; src/client/main.tsx passes src/client/screens/registry.ts. */
  screens: ScreenRegistry;
}

export function FlowRouter({ settings, models, screens }: FlowRouterProps) {
  const implementations = useMemo(() => createImplementations(settings), [settings]);
  /** Pages shown so far: every page after the first was reached by a page change. */
  const pagesShown = useRef(0);
  return (
    <BrowserRouter>
      <PathChangeEffects settings={settings} models={models} />
      <Routes>
        {models.flatMap((model) =>
          model.pages.map((page) => (
            <Route
              key={page.path}
              path={page.path}
              element={
                <GuardedPage
                  key={page.path}
                  model={model}
                  models={models}
                  page={page}
                  settings={settings}
                  implementations={implementations}
                  screens={screens}
                  pagesShown={pagesShown}
                />
              }
            />
          )),
        )}
        <Route path="*" element={<Navigate to={LANDING_FALLBACK} replace />} />
      </Routes>
    </BrowserRouter>
  );
}

/** Scroll to the top and report a page view on every path change (spec section 2). */
function PathChangeEffects({ settings, models }: { settings: ClientSettings; models: FlowModel[] }) {
  const { pathname } = useLocation();
  const sink = useMemo(() => createAnalyticsSink(settings.analyticsMeasurementId), [settings.analyticsMeasurementId]);
  useEffect(() => {
    window.scrollTo(0, 0);
    const page = models.map((m) => m.pageByPath.get(pathname)).find((p) => p !== undefined);
    const title = page ? `${page.title} | ${settings.bank.NAME}` : settings.bank.NAME;
    document.title = title;
    sink.pageView(pathname, title);
  }, [pathname, models, settings.bank.NAME, sink]);
  return null;
}

interface PageProps {
  model: FlowModel;
  models: FlowModel[];
  page: FlowPage;
  settings: ClientSettings;
  implementations: FlowImplementations;
  screens: ScreenRegistry;
  pagesShown: { current: number };
}

/**
 * The navigation guard: a page opens only when arriving from a state with a transition into it,
 * or on the way to resuming an application (runtime/resume.ts).
 */
function GuardedPage(props: PageProps) {
  const location = useLocation();
  const { from, data } = navigationStateOf(location.state);
  const resuming = isResumeJourney(data) && isResumeArrival(props.model, props.page.path, from);
  if (!resuming && !isArrivalAllowed(props.models, props.page.path, from)) {
    return <Navigate to={errorPathOf(props.model)} replace />;
  }
  return <ActivePage {...props} />;
}

function ActivePage({ model, page, settings, implementations, screens, pagesShown }: PageProps) {
  const navigate = useNavigate();
  const [reachedByPageChange] = useState(() => pagesShown.current++ > 0);
  const location = useLocation();
  const arrivalData = navigationStateOf(location.state).data;
  const [actor, setActor] = useState<AnyActorRef | null>(null);
  const [snapshot, setSnapshot] = useState<AnyMachineSnapshot | null>(null);
  const lastEvent = useRef<{ type: string; output?: unknown; error?: unknown; data?: Record<string, unknown> } | null>(null);

  useEffect(() => {
    const errorPath = errorPathOf(model);
    setUnauthorizedHandler(() => navigate(`${errorPath}?id=1`, { replace: true }));
  }, [model, navigate]);

  useEffect(() => {
    const machine = machineAt(model, page.stateId, implementations);
    const started = createActor(machine, {
      inspect: (inspection: InspectionEvent) => {
        if (inspection.type === '@xstate.event' && inspection.actorRef === started) {
          lastEvent.current = inspection.event as typeof lastEvent.current;
        }
      },
    });
    const subscription = started.subscribe((next) => {
      const stateId = topLevelState(next.value);
      if (stateId && stateId !== page.stateId) {
        const target = model.pageByState.get(stateId)?.path ?? model.exits.get(stateId);
        const event = lastEvent.current;
        const data = event?.data ?? (event?.output && typeof event.output === 'object' ? (event.output as Record<string, unknown>) : undefined) ?? (event?.error instanceof FlowFailure ? event.error.data : undefined);
        if (target) navigate(target, { state: { from: page.path, data } satisfies NavigationState });
        return;
      }
      setSnapshot(next);
    });
    // Entry actions (e.g. clearing session storage on the landing page) run here, before the
    // screen mounts, so what the screen stores on mount is never wiped by them.
    started.start();
    setActor(started);
    return () => {
      subscription.unsubscribe();
      started.stop();
    };
  }, [model, page, implementations, navigate]);

  if (!actor || !snapshot) return null;
  const Screen = screens[page.screen];
  const send = (event: FlowEvent) => actor.send(event);
  return (
    <Layout settings={settings} page={page} totalSteps={model.config.meta.totalSteps} focusHeading={reachedByPageChange}>
      <Suspense fallback={<p className="loading" role="status">読み込み中です…</p>}>
        <Screen page={page} flow={model} settings={settings} snapshot={snapshot} send={send} arrivalData={arrivalData} />
      </Suspense>
      {/* A step page may be left and resumed later (ADR 0030). */}
      {!page.entry && page.step !== undefined && <SaveForLater />}
      {/* Landing, error and return pages open no session of their own: nothing to warn of there. */}
      {!page.entry && <SessionTimeoutWarning timings={settings.session} />}
    </Layout>
  );
}
