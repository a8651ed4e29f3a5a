import type { ProbeAnswer } from './probe-protocol.js';
import { medianAndP95 } from './support.js';

/**
 * bench/load.ts's breakdown of the server's CPU time by route, one applicant at a time, from
 * the probe in the server (bench/server-probe.ts): where the CPU of an application goes.
 */

export interface CpuByRoute {
  /** The median CPU time of one request, by route, in ms. */
  medianMs: Map<string, number>;
  /** The CPU time spent inside requests, per application, in ms (the rest of the process's is background work). */
  inRequestsMs: number;
}

/** The requests' CPU times the probe answered (those since its previous answer), over `applications`. */
export function cpuByRoute(answer: ProbeAnswer, applications: number): CpuByRoute {
  const medianMs = new Map<string, number>();
  let total = 0;
  for (const [route, samples] of Object.entries(answer.cpuByRoute)) {
    medianMs.set(route, medianAndP95(samples).median / 1000);
    total += samples.reduce((sum, us) => sum + us, 0);
  }
  return { medianMs, inRequestsMs: total / 1000 / applications };
}

const ms = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(2));

/** Rows of route, then each column's median CPU per request (sorted by the first column, largest first), and the time in requests per application. */
export function cpuByRouteRows(columns: { title: string; cpu: CpuByRoute }[]): string[][] {
  const routes = [...new Set(columns.flatMap((column) => [...column.cpu.medianMs.keys()]))];
  const first = columns[0]?.cpu.medianMs;
  routes.sort((a, b) => (first?.get(b) ?? 0) - (first?.get(a) ?? 0) || a.localeCompare(b));
  return [
    ['route', ...columns.map((column) => column.title)],
    ...routes.map((route) => [route, ...columns.map((column) => ms(column.cpu.medianMs.get(route)))]),
    ['in requests, per application (sum)', ...columns.map((column) => ms(column.cpu.inRequestsMs))],
  ];
}
