/**
 * npm run start:cluster: one server process per core (WORKERS to choose), all on PORT, sharing
 * one PostgreSQL (DATABASE_URL) and nothing else: rate limits, the mail queue, the caches'
 * change notices and the operator data live in the database. The embedded database serves one
 * process only, so without DATABASE_URL this refuses to start. A worker that dies is replaced.
 */
import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './config.js';

const config = loadConfig();
if (!config.databaseUrl) {
  console.error('npm run start:cluster needs DATABASE_URL: the embedded database (PGlite) serves one process. Use npm start without it.');
  process.exit(2);
}
const workers = Number(process.env.WORKERS ?? availableParallelism());
if (!Number.isInteger(workers) || workers < 1) {
  console.error(`WORKERS must be a whole number of processes, got ${process.env.WORKERS}`);
  process.exit(2);
}

// Each worker runs the built server beside this file; they share PORT through the cluster.
cluster.setupPrimary({ exec: join(dirname(fileURLToPath(import.meta.url)), 'main.js') });
let stopping = false;
cluster.on('exit', (worker, code, signal) => {
  if (stopping) return;
  console.error(`worker ${worker.process.pid} ended (${signal ?? code}); starting another`);
  cluster.fork();
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill(signal);
  });
}
console.log(`starting ${workers} server processes on port ${config.port}`);
for (let i = 0; i < workers; i += 1) cluster.fork();
