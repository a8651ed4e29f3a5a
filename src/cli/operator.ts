/**
 * Operator command: maintenance windows and notices, written into the service's database
 * (there is no staff UI; spec section 6), and the applicants a flow edit strands (ADR 0032).
 *
 *   npm run operator -- <command>     (see usage below)
 *
 * Two ways to reach the database, chosen per run:
 * - via the running server: with PGlite (no DATABASE_URL) the server listens on the Unix socket
 *   DATA_DIR/operator.sock (src/server/plugins/operator-socket.ts). When that socket answers,
 *   the command is sent there and runs inside the server, on the server's own database. PGlite
 *   allows one process per data directory, so this is what lets operators announce maintenance
 *   without stopping the service.
 * - directly: with DATABASE_URL (PostgreSQL has no one-process limit), or when no server is
 *   running on DATA_DIR (no socket, or a stale one nobody listens on), the database is opened
 *   here as the server would open it.
 *
 * This file is only the entry point: it reads the arguments, prints, and hands the command to
 * the socket or to the database. The commands themselves live in src/server/operator/.
 */
import { pathToFileURL } from 'node:url';
import { loadBanks } from '../server/banks/registry.js';
import { loadConfig } from '../server/config.js';
import { openDatabase } from '../server/db/index.js';
import { assertFlowsValid } from '../server/flows/check.js';
import { runOperator } from '../server/operator/commands.js';
import { sendToRunningServer } from '../server/operator/send-to-running-server.js';
import { operatorSocketPath } from '../server/operator/socket-path.js';
import { usage } from '../server/operator/usage.js';

export interface CliOptions {
  /** The environment to read DATA_DIR, DATABASE_URL, BANKS_DIR from; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Command output (stdout). */
  out?: (line: string) => void;
  /** Notes about how the command ran (stderr). */
  err?: (line: string) => void;
}

/**
 * The whole command line: help, else the running server when one answers on the socket, else
 * the database opened here. Returns the exit code.
 */
export async function runCli(argv: string[], options: CliOptions = {}): Promise<number> {
  const { env = process.env, out = console.log, err = console.error } = options;
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
    // Help needs no database (and must not lock the PGlite directory).
    out(usage);
    return argv.length === 0 ? 2 : 0;
  }
  const config = loadConfig(env);
  const socketPath = operatorSocketPath(config);
  if (socketPath) {
    const answer = await sendToRunningServer(socketPath, argv);
    if (answer) {
      err('(via the running server)');
      for (const line of answer.lines) out(line);
      return answer.exitCode;
    }
  }
  err(config.databaseUrl ? '(directly on DATABASE_URL)' : '(directly on DATA_DIR/pglite: no server is running)');
  const banks = await loadBanks(config.banksDir);
  const { db, close } = await openDatabase(config);
  try {
    // The flows a server on this configuration would serve (FLOWS_DIR, linted as at its start).
    const servedFlows = () => assertFlowsValid(config.flowsDir, config.schemasDir).versioned;
    return await runOperator(argv, { db, isBank: (code) => Boolean(banks.get(code)), servedFlows, print: out });
  } finally {
    await close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runCli(process.argv.slice(2)).then(
    (exitCode) => {
      process.exitCode = exitCode;
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
