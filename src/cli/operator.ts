/**
 * Operator command: maintenance windows and notices, written into the service's database
 * (there is no staff UI; spec section 6).
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
 */
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { and, asc, eq, type SQL } from 'drizzle-orm';
import { loadBanks } from '../server/banks/registry.js';
import { loadConfig, type ServerConfig } from '../server/config.js';
import { openDatabase, type Database } from '../server/db/index.js';
import { maintenanceWindows, notifications } from '../server/db/schema.js';
import { parseOperatorTime, toJstIso } from '../server/time.js';

export const usage = `Usage: npm run operator -- <command> [options]

  maintenance add --start <time> --end <time> [--note <text>]
  maintenance list
  maintenance remove --id <n>
  maintenance clear                      remove every window (past, current and future)
  notification add --bank <code> --contents <text> [--start <time>] [--end <time>]
  notification list [--bank <code>]
  notification remove --id <n>

Times: ISO 8601, e.g. 2026-12-01T00:00+09:00; without an offset they are Japan time.
A notice without --start shows at once; without --end until it is removed.

Database: DATABASE_URL when set, else DATA_DIR/pglite (default ./data/pglite).
The server may keep running: with PGlite the command is handed to the running server through
its socket DATA_DIR/operator.sock (run this as the user that owns DATA_DIR); when no server is
running it opens DATA_DIR/pglite itself. With DATABASE_URL it always connects directly.`;

class UsageError extends Error {}

export interface OperatorContext {
  db: Database;
  /** Whether a bank code belongs to the group. */
  isBank(code: string): boolean;
  print(line: string): void;
}

function time(value: string | undefined, name: string): Date | null {
  if (value === undefined) return null;
  const parsed = parseOperatorTime(value);
  if (!parsed) throw new UsageError(`--${name} is not a time: ${value} (e.g. 2026-12-01T00:00+09:00)`);
  return parsed;
}

function required<T>(value: T | null | undefined, name: string): T {
  if (value === null || value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function id(value: string | undefined): number {
  const parsed = Number(required(value, 'id'));
  if (!Number.isInteger(parsed) || parsed <= 0) throw new UsageError(`--id must be a positive integer, got ${value}`);
  return parsed;
}

function period(start: Date | null, end: Date | null): string {
  return `${start ? toJstIso(start) : '(now)'} – ${end ? toJstIso(end) : '(until removed)'}`;
}

/** Runs one command; returns the process exit code (0 done, 1 failed, 2 usage error). */
export async function runOperator(argv: string[], context: OperatorContext): Promise<number> {
  const { db, print } = context;
  try {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        start: { type: 'string' },
        end: { type: 'string' },
        note: { type: 'string' },
        bank: { type: 'string' },
        contents: { type: 'string' },
        id: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    const [subject, action] = positionals;
    if (values.help || !subject) {
      print(usage);
      return values.help ? 0 : 2;
    }
    const command = `${subject} ${action ?? ''}`.trim();
    switch (command) {
      case 'maintenance add': {
        const startedAt = required(time(values.start, 'start'), 'start');
        const endedAt = required(time(values.end, 'end'), 'end');
        if (endedAt <= startedAt) throw new UsageError('--end must be after --start');
        const [row] = await db
          .insert(maintenanceWindows)
          .values({ startedAt, endedAt, note: values.note ?? null })
          .returning({ id: maintenanceWindows.id });
        print(`Added maintenance window #${row?.id}: ${period(startedAt, endedAt)}`);
        return 0;
      }
      case 'maintenance list': {
        const rows = await db.select().from(maintenanceWindows).orderBy(asc(maintenanceWindows.startedAt));
        if (rows.length === 0) print('No maintenance windows.');
        for (const row of rows) print(`#${row.id} ${period(row.startedAt, row.endedAt)}${row.note ? ` ${row.note}` : ''}`);
        return 0;
      }
      case 'maintenance remove': {
        const removed = await db
          .delete(maintenanceWindows)
          .where(eq(maintenanceWindows.id, id(values.id)))
          .returning({ id: maintenanceWindows.id });
        if (removed.length === 0) {
          print(`No maintenance window #${values.id}.`);
          return 1;
        }
        print(`Removed maintenance window #${values.id}.`);
        return 0;
      }
      case 'maintenance clear': {
        const removed = await db.delete(maintenanceWindows).returning({ id: maintenanceWindows.id });
        print(`Removed ${removed.length} maintenance window(s).`);
        return 0;
      }
      case 'notification add': {
        const bankCode = required(values.bank, 'bank');
        if (!context.isBank(bankCode)) throw new UsageError(`--bank ${bankCode} is not a bank of the group`);
        const contents = required(values.contents?.trim(), 'contents');
        const startsAt = time(values.start, 'start');
        const endsAt = time(values.end, 'end');
        if (startsAt && endsAt && endsAt <= startsAt) throw new UsageError('--end must be after --start');
        const [row] = await db
          .insert(notifications)
          .values({ bankCode, contents, startsAt, endsAt })
          .returning({ id: notifications.id });
        print(`Added notification #${row?.id} for bank ${bankCode}: ${period(startsAt, endsAt)}`);
        return 0;
      }
      case 'notification list': {
        const filters: SQL[] = values.bank ? [eq(notifications.bankCode, values.bank)] : [];
        const rows = await db
          .select()
          .from(notifications)
          .where(and(...filters))
          .orderBy(asc(notifications.bankCode), asc(notifications.id));
        if (rows.length === 0) print('No notifications.');
        for (const row of rows) print(`#${row.id} [${row.bankCode}] ${period(row.startsAt, row.endsAt)}\n    ${row.contents}`);
        return 0;
      }
      case 'notification remove': {
        const removed = await db
          .delete(notifications)
          .where(eq(notifications.id, id(values.id)))
          .returning({ id: notifications.id });
        if (removed.length === 0) {
          print(`No notification #${values.id}.`);
          return 1;
        }
        print(`Removed notification #${values.id}.`);
        return 0;
      }
      default:
        throw new UsageError(`Unknown command: ${command}`);
    }
  } catch (error) {
    // parseArgs reports unknown options as TypeError with an ERR_PARSE_ARGS_* code.
    const code = (error as NodeJS.ErrnoException).code;
    if (error instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))) {
      print(`${(error as Error).message}\n\n${usage}`);
      return 2;
    }
    throw error;
  }
}

/** What one command produced: the exit code (0 done, 1 failed, 2 usage error) and its output. */
export interface OperatorResult {
  exitCode: number;
  lines: string[];
}

/**
 * The commands as a function of their arguments and a database, collecting what they print.
 * The CLI runs it on a database it opened itself; the server runs the very same function on
 * its own database for a command that came in over the operator socket.
 */
export async function runOperatorCommand(
  argv: string[],
  context: Omit<OperatorContext, 'print'>,
): Promise<OperatorResult> {
  const lines: string[] = [];
  const exitCode = await runOperator(argv, { ...context, print: (line) => lines.push(line) });
  return { exitCode, lines };
}

/** The HTTP path of the operator socket's one route. */
export const operatorSocketRoute = '/run';

/**
 * Where a server listens for operator commands: DATA_DIR/operator.sock. None with DATA_DIR
 * ':memory:' (nothing on disk to meet at) or with DATABASE_URL: PostgreSQL takes any number of
 * connections, so the command connects directly, and several servers may then share one
 * DATA_DIR, which one socket path could not serve.
 */
export function operatorSocketPath(config: Pick<ServerConfig, 'dataDir' | 'databaseUrl'>): string | null {
  if (config.databaseUrl || config.dataDir === ':memory:') return null;
  return path.join(config.dataDir, 'operator.sock');
}

function isOperatorResult(value: unknown): value is OperatorResult {
  if (typeof value !== 'object' || value === null) return false;
  const { exitCode, lines } = value as Partial<Record<keyof OperatorResult, unknown>>;
  return Number.isInteger(exitCode) && Array.isArray(lines) && lines.every((line) => typeof line === 'string');
}

/**
 * Hands a command to the server listening on the socket. Null when no server is there: no
 * socket file (ENOENT) or a stale one left by a server that died (ECONNREFUSED); only then may
 * the caller open the database itself. Any other failure (no permission, a reset connection,
 * no answer in time) throws: the server may be running, and a second process on its PGlite
 * directory would damage the database.
 */
export async function sendToRunningServer(
  socketPath: string,
  argv: string[],
  timeoutMs = 60_000,
): Promise<OperatorResult | null> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ argv });
    const request = http.request(
      {
        socketPath,
        path: operatorSocketRoute,
        method: 'POST',
        // One request per connection: a kept-alive socket would hold the command open.
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          let answer: unknown;
          try {
            answer = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            reject(new Error(`the running server answered ${response.statusCode} with no JSON`));
            return;
          }
          if (response.statusCode === 200 && isOperatorResult(answer)) resolve(answer);
          else {
            const message = (answer as { message?: unknown } | null)?.message;
            reject(new Error(`the running server failed the command: ${typeof message === 'string' ? message : response.statusCode}`));
          }
        });
      },
    );
    request.setTimeout(timeoutMs, () => {
      request.destroy(
        new Error(`the running server did not answer within ${timeoutMs / 1000} s (the command may still complete; check with "list")`),
      );
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(null);
      else if (error.code === 'EACCES') reject(new Error(`no permission to use ${socketPath}: run this as the user that owns DATA_DIR`));
      else reject(error);
    });
    request.end(body);
  });
}

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
    return await runOperator(argv, { db, isBank: (code) => Boolean(banks.get(code)), print: out });
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
