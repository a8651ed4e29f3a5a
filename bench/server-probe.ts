/**
 * Preloaded into the server process that bench/load.ts starts (`node --import <this file,
 * compiled by the bench> dist/server/main.js`); never part of the product. It counts the SQL
 * statements the process sends, on either driver (bench/sql-count.ts, on the prototypes, so
 * the server's own clients are counted without a change to its code), and the delay of its event
 * loop; it answers the bench's IPC message 'probe' with the count so far and the largest and
 * 99th-percentile delay since the previous answer. CPU time and memory the bench reads from
 * /proc itself, the same way for every process it measures.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { countPgliteStatements, countPgStatements } from './sql-count.js';

let statements = 0;
const note = () => {
  statements += 1;
};
countPgliteStatements(PGlite.prototype, note);
countPgStatements(pg.Client.prototype, note);

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();

/** What the probe answers. */
export interface ProbeAnswer {
  statements: number;
  /** The event loop's delay since the previous answer, in ms. */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

process.on('message', (message) => {
  if (message !== 'probe') return;
  const answer: ProbeAnswer = { statements, loopDelayP99Ms: delay.percentile(99) / 1e6, loopDelayMaxMs: delay.max / 1e6 };
  delay.reset();
  process.send?.(answer);
});
// The IPC channel must not keep the server alive once it has closed.
process.channel?.unref();
