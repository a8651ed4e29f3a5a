/**
 * Preloaded into the server process that bench/load.ts starts (`node --import <this file,
 * compiled by the bench> dist/server/main.js`); never part of the product. It counts the SQL
 * statements the process sends, on either driver (bench/sql-count.ts, on the prototypes, so
 * the server's own clients are counted without a change to its code), and the delay of its event
 * loop; it answers the bench's IPC message 'probe' with the count so far and the largest and
 * 99th-percentile delay since the previous answer. CPU time and memory the bench reads from
 * /proc itself, the same way for every process it measures.
 *
 * Each statement is also counted by route: the driver names the route of each request in the
 * header ROUTE_HEADER, and the probe runs the server's handling of that request in an
 * AsyncLocalStorage holding the name, so a statement is counted where it is sent, whatever the
 * await chain between. Work started outside any request (the mail worker's poll, the clean-up
 * of ended rate-limit windows) counts as BACKGROUND. The answer also carries each route's
 * statements by text (drizzle sends parameters apart, so the texts are few), to see which they are,
 * and the CPU time of each request by route since the previous answer.
 *
 * Counting by route has a price the server would not pay in production: an AsyncLocalStorage on
 * Node 20 runs promise hooks on every promise, and the texts are normalised per statement. The
 * bench therefore turns it on only while it wants the breakdown (IPC 'routes:on' / 'routes:off',
 * PROBE_MESSAGES); with it off the probe counts statements and nothing else, and its storage is
 * disabled so that the hooks stop.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Server, type IncomingMessage, type ServerResponse } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { BACKGROUND, PROBE_MESSAGES, ROUTE_HEADER, type ProbeAnswer } from './probe-protocol.js';
import { countPgliteStatements, countPgStatements } from './sql-count.js';

const routeOf = new AsyncLocalStorage<string>();
let byRouteOn = true;
let statements = 0;
const byRoute = new Map<string, number>();
const texts = new Map<string, Map<string, number>>();
const cpuByRoute = new Map<string, number[]>();

const note = (sql: string) => {
  statements += 1;
  if (!byRouteOn) return;
  const route = routeOf.getStore() ?? BACKGROUND;
  byRoute.set(route, (byRoute.get(route) ?? 0) + 1);
  let ofRoute = texts.get(route);
  if (!ofRoute) texts.set(route, (ofRoute = new Map()));
  const text = sql.replace(/\s+/g, ' ').trim();
  ofRoute.set(text, (ofRoute.get(text) ?? 0) + 1);
};
countPgliteStatements(PGlite.prototype, note);
countPgStatements(pg.Client.prototype, note);

// Every request reaches the server's handler through Server#emit('request'): run it, and so
// everything it awaits, in the route's context. The request's own events ('data', 'end') come
// from the connection's context, not the emit's: the handler that runs after the body is read
// would lose the route, so they are emitted in it too.
type Emit = (this: unknown, event: string | symbol, ...args: unknown[]) => boolean;
const emit = Server.prototype.emit as Emit;
(Server.prototype as { emit: Emit }).emit = function (event, ...args) {
  const request = event === 'request' ? (args[0] as IncomingMessage) : undefined;
  const route = request?.headers[ROUTE_HEADER];
  if (!byRouteOn || !request || typeof route !== 'string') return emit.call(this, event, ...args);
  const emitOfRequest = request.emit as Emit;
  (request as { emit: Emit }).emit = function (eventOfRequest, ...argsOfRequest) {
    return routeOf.run(route, () => emitOfRequest.call(this, eventOfRequest, ...argsOfRequest));
  };
  const started = process.cpuUsage();
  (args[1] as ServerResponse).once('finish', () => {
    const used = process.cpuUsage(started);
    let samples = cpuByRoute.get(route);
    if (!samples) cpuByRoute.set(route, (samples = []));
    samples.push(used.user + used.system);
  });
  return routeOf.run(route, () => emit.call(this, event, ...args));
};

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();

/** 'probe': the counts so far and the event loop's delay since the previous answer. */
process.on('message', (message) => {
  if (message === PROBE_MESSAGES.routesOn || message === PROBE_MESSAGES.routesOff) {
    byRouteOn = message === PROBE_MESSAGES.routesOn;
    if (!byRouteOn) routeOf.disable();
    process.send?.(message);
    return;
  }
  if (message !== PROBE_MESSAGES.ask) return;
  const answer: ProbeAnswer = {
    statements,
    byRoute: Object.fromEntries(byRoute),
    texts: Object.fromEntries([...texts].map(([route, ofRoute]) => [route, Object.fromEntries(ofRoute)])),
    cpuByRoute: Object.fromEntries(cpuByRoute),
    loopDelayP99Ms: delay.percentile(99) / 1e6,
    loopDelayMaxMs: delay.max / 1e6,
  };
  delay.reset();
  cpuByRoute.clear();
  process.send?.(answer);
});
// The IPC channel must not keep the server alive once it has closed.
process.channel?.unref();
