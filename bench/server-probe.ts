/**
 * Preloaded into the server process that bench/load.ts starts (`node --import <this file,
 * compiled by the bench> dist/server/main.js`); never part of the product. It counts the SQL
 * statements the process sends, on either driver (bench/sql-count.ts, on the prototypes, so
 * the server's own clients are counted without a change to its code), and answers the bench's
 * IPC message 'statements' with the count so far. CPU time and memory the bench reads from
 * /proc itself, the same way for every process it measures.
 */
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { countPgliteStatements, countPgStatements } from './sql-count.js';

let statements = 0;
const note = () => {
  statements += 1;
};
countPgliteStatements(PGlite.prototype, note);
countPgStatements(pg.Client.prototype, note);

process.on('message', (message) => {
  if (message === 'statements') process.send?.({ statements });
});
// The IPC channel must not keep the server alive once it has closed.
process.channel?.unref();
