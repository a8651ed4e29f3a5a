/**
 * What bench/load.ts and the probe it preloads into the server (bench/server-probe.ts) share,
 * apart from the probe: importing the probe would patch the driver's own process.
 */

/** The request header in which the driver names a request's route, for the probe's count by route. */
export const ROUTE_HEADER = 'x-bench-route';
/** Where the probe counts statements sent outside any request (mail worker, clean-ups). */
export const BACKGROUND = '(background)';

/** What the driver sends the probe over IPC: ask for the counts, or turn counting by route on or off (the probe echoes these two). */
export const PROBE_MESSAGES = { ask: 'probe', routesOn: 'routes:on', routesOff: 'routes:off' } as const;

/** What the probe answers. */
export interface ProbeAnswer {
  statements: number;
  /** Statements so far by route (ROUTE_HEADER), BACKGROUND for those outside a request. */
  byRoute: Record<string, number>;
  /** Statements so far by route and text. */
  texts: Record<string, Record<string, number>>;
  /**
   * The process's CPU time (µs) of each request since the previous answer, by route: from the
   * request's arrival to its answer's end, while counting by route is on (one applicant at a
   * time, so little else runs meanwhile).
   */
  cpuByRoute: Record<string, number[]>;
  /** The event loop's delay since the previous answer, in ms. */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}
