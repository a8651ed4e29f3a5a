import { BACKGROUND, type ProbeAnswer } from './probe-protocol.js';

/**
 * bench/load.ts's breakdown of the SQL statements of a whole application by route, from two
 * answers of the probe in the server (bench/server-probe.ts): where the statements go.
 */

export interface SqlByRoute {
  /** Statements per application by route. */
  perRoute: Map<string, number>;
  /** Statements per application by route and text. */
  texts: Map<string, Map<string, number>>;
}

/** (after - before) / applications, by key; keys with no change left out. */
function perApplication(before: Record<string, number> = {}, after: Record<string, number> = {}, applications: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [key, count] of Object.entries(after)) {
    const added = count - (before[key] ?? 0);
    if (added > 0) counts.set(key, added / applications);
  }
  return counts;
}

/** What the server sent between two answers of its probe, per application. */
export function sqlByRoute(before: ProbeAnswer, after: ProbeAnswer, applications: number): SqlByRoute {
  const texts = new Map<string, Map<string, number>>();
  for (const route of Object.keys(after.texts)) {
    const ofRoute = perApplication(before.texts[route], after.texts[route], applications);
    if (ofRoute.size > 0) texts.set(route, ofRoute);
  }
  return { perRoute: perApplication(before.byRoute, after.byRoute, applications), texts };
}

const count = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(1));

/** Rows of route, then each column's statements per application (sorted by the first column, largest first), and the totals. */
export function sqlByRouteRows(columns: { title: string; byRoute: SqlByRoute }[]): string[][] {
  const routes = [...new Set(columns.flatMap((column) => [...column.byRoute.perRoute.keys()]))];
  const first = columns[0]?.byRoute.perRoute;
  routes.sort((a, b) => (first?.get(b) ?? 0) - (first?.get(a) ?? 0) || a.localeCompare(b));
  const total = (byRoute: Map<string, number>) => [...byRoute.values()].reduce((sum, n) => sum + n, 0);
  return [
    ['route', ...columns.map((column) => column.title)],
    ...routes.map((route) => [route, ...columns.map((column) => count(column.byRoute.perRoute.get(route)))]),
    ['total', ...columns.map((column) => count(total(column.byRoute.perRoute)))],
  ];
}

/** Each route's statements of one application by text (LOAD_SQL_TEXTS=1), the background's apart as they come with time, not with applications. */
export function sqlTextLines(byRoute: SqlByRoute): string[] {
  const lines: string[] = [];
  for (const [route, texts] of byRoute.texts) {
    lines.push(`${route}${route === BACKGROUND ? ' (divided by the applications, though it follows the time)' : ''}:`);
    for (const [text, n] of [...texts].sort((a, b) => b[1] - a[1])) lines.push(`  ${n.toFixed(1)}x ${text.length > 160 ? `${text.slice(0, 157)}...` : text}`);
  }
  return lines;
}
