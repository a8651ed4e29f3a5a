/**
 * The operator commands (maintenance windows and notices, spec section 6; the applicants a
 * flow edit strands, ADR 0032; the export of verification records, ADR 0034) as a function of
 * their arguments and a database. The CLI (src/cli/operator.ts) runs them on a database it
 * opened itself; the server runs them on its own database for a command that came in over the
 * operator socket (../plugins/operator-socket.ts).
 */
import { parseArgs } from 'node:util';
import { and, asc, eq, type SQL } from 'drizzle-orm';
import type { VersionedFlow } from '../../domain/flow/types.js';
import type { Database } from '../db/index.js';
import { impactReport, strandedApplicants } from '../flows/stranded.js';
import { maintenanceWindows, notifications } from '../db/schema.js';
import { recordsWritten } from '../records/read.js';
import { parseOperatorTime, toJstIso } from '../time.js';
import { printDeliveries, resend } from './deliveries.js';
import { usage } from './usage.js';

class UsageError extends Error {}

export interface OperatorContext {
  db: Database;
  /** Whether a bank code belongs to the group. */
  isBank(code: string): boolean;
  print(line: string): void;
  /** The flows new applicants get: the server's own, or FLOWS_DIR's linted (read only when a command needs them). */
  servedFlows(): readonly VersionedFlow[];
  /**
   * Told which table a command changed, so the process that ran it drops its copy at once
   * (other processes hear the database's notice: db/changes.ts).
   */
  changed?(table: 'maintenance_windows' | 'notifications' | 'bank_deliveries'): void;
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

/** A bare day as --to means through its end (Japan time): the export is up to the next day's start. */
function throughDay(text: string, parsed: Date): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(text.trim()) ? new Date(parsed.getTime() + 24 * 60 * 60 * 1000) : parsed;
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
        from: { type: 'string' },
        to: { type: 'string' },
        application: { type: 'string' },
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
      case 'deliveries list':
        await printDeliveries(db, print);
        return 0;
      case 'deliveries resend': {
        const application = required(values.application, 'application');
        if (!(await resend(db, application, new Date(), print))) return 1;
        context.changed?.('bank_deliveries');
        return 0;
      }
      case 'maintenance add': {
        const startedAt = required(time(values.start, 'start'), 'start');
        const endedAt = required(time(values.end, 'end'), 'end');
        if (endedAt <= startedAt) throw new UsageError('--end must be after --start');
        const [row] = await db
          .insert(maintenanceWindows)
          .values({ startedAt, endedAt, note: values.note ?? null })
          .returning({ id: maintenanceWindows.id });
        context.changed?.('maintenance_windows');
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
        context.changed?.('maintenance_windows');
        print(`Removed maintenance window #${values.id}.`);
        return 0;
      }
      case 'maintenance clear': {
        const removed = await db.delete(maintenanceWindows).returning({ id: maintenanceWindows.id });
        context.changed?.('maintenance_windows');
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
        context.changed?.('notifications');
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
        context.changed?.('notifications');
        print(`Removed notification #${values.id}.`);
        return 0;
      }
      case 'flows impact': {
        // The report of the server's start (ADR 0032), without a restart.
        const served = context.servedFlows();
        for (const line of impactReport(await strandedApplicants(db, served), served)) print(line);
        return 0;
      }
      case 'records export': {
        // One JSON object per line on stdout, oldest first: what an audit asks for.
        const bankCode = required(values.bank, 'bank');
        if (!context.isBank(bankCode)) throw new UsageError(`--bank ${bankCode} is not a bank of the group`);
        const from = required(time(values.from, 'from'), 'from');
        const to = throughDay(required(values.to, 'to'), required(time(values.to, 'to'), 'to'));
        if (to <= from) throw new UsageError('--to must be after --from');
        for (const record of await recordsWritten(db, bankCode, from, to)) print(JSON.stringify(record));
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
