import { and, asc, eq, getTableColumns, gte, lt, sql, type SQL } from 'drizzle-orm';
import { recordRetentionYearsOf, type BankConfig } from '../../domain/bank/types.js';
import type { Database } from '../db/index.js';
import { oncePerDatabase } from '../db/prepared.js';
import { qualified } from '../db/qualified.js';
import { rowsOf } from '../db/values.js';
import { verificationRecords } from '../db/schema.js';

export type VerificationRecord = typeof verificationRecords.$inferSelect;

/**
 * An application's verification records, oldest first (corrections after what they correct).
 * The hand-off to the bank reads them within its own statement (recordsJsonOf).
 */
export async function recordsOf(db: Database, applicationId: string): Promise<VerificationRecord[]> {
  return recordsOfApplication(db).execute({ applicationId });
}

const recordColumns = Object.entries(getTableColumns(verificationRecords));

/**
 * recordsOf as one json array, a part of a larger statement (the hand-off's, delivery/payload.ts)
 * for the application `applicationId` names: each record an object keyed as VerificationRecord,
 * its times as PostgreSQL's json text (recordsFromJson reads them back).
 */
export function recordsJsonOf(applicationId: SQL): SQL<unknown[]> {
  const fields = sql.join(
    // The keys are our own property names, written into the statement as they are.
    recordColumns.map(([key, column]) => sql`${sql.raw(`'${key}'`)}, ${qualified(column)}`),
    sql`, `,
  );
  return sql`(select coalesce(json_agg(json_build_object(${fields}) order by ${qualified(verificationRecords.id)}), '[]'::json) from ${verificationRecords} where ${qualified(verificationRecords.applicationId)} = ${applicationId})`;
}

/** The records of recordsJsonOf as recordsOf returns them: its times as Dates. */
export function recordsFromJson(rows: unknown[]): VerificationRecord[] {
  return rows.map((row) => {
    const record = { ...(row as Record<string, unknown>) };
    for (const [key, column] of recordColumns) {
      const value = record[key];
      if (column.dataType === 'date' && typeof value === 'string') record[key] = new Date(value);
    }
    return record as VerificationRecord;
  });
}

/** recordsOf's statement, prepared (db/prepared.ts). */
const recordsOfApplication = oncePerDatabase((db) =>
  db
    .select()
    .from(verificationRecords)
    .where(eq(verificationRecords.applicationId, sql.placeholder('applicationId')))
    .orderBy(asc(verificationRecords.id))
    .prepare('records_of_application'),
);

/** A bank's records written in [from, to), oldest first: what an audit export lists. */
export async function recordsWritten(db: Database, bankCode: string, from: Date, to: Date): Promise<VerificationRecord[]> {
  return db
    .select()
    .from(verificationRecords)
    .where(and(eq(verificationRecords.bankCode, bankCode), gte(verificationRecords.recordedAt, from), lt(verificationRecords.recordedAt, to)))
    .orderBy(asc(verificationRecords.id));
}

/**
 * Corrects a record: a new record, a copy of the corrected one with `changes` applied, naming
 * it in `corrects` with the reason. The corrected record itself never changes (the database
 * refuses). Returns the new record's id; refused (unique index) when the record was corrected
 * already: correct the correction instead.
 */
export async function correctRecord(
  db: Database,
  id: number,
  changes: Partial<Pick<VerificationRecord, 'subject' | 'method' | 'evidence' | 'verifiedAt'>>,
  reason: string,
  now: Date,
): Promise<number> {
  const [original] = await db.select().from(verificationRecords).where(eq(verificationRecords.id, id));
  if (!original) throw new Error(`no verification record #${id}`);
  const { id: _id, corrects: _corrects, correctionReason: _reason, ...kept } = original;
  const [row] = await db
    .insert(verificationRecords)
    .values({ ...kept, ...changes, recordedAt: now, corrects: id, correctionReason: reason })
    .returning({ id: verificationRecords.id });
  if (!row) throw new Error('the correction was not written');
  return row.id;
}

/** The same moment `years` calendar years earlier (as PostgreSQL's `interval 'n years'`). */
export function yearsBefore(now: Date, years: number): Date {
  const then = new Date(now);
  then.setUTCFullYear(then.getUTCFullYear() - years);
  return then;
}

/**
 * Deletes a bank's records past `before` through the database's purge function (migration
 * 0022), the one DELETE the append-only trigger lets through; it never takes a record younger
 * than 7 years (a later `before` counts as 7 years ago). Returns how many rows went.
 */
export async function purgeRecords(db: Database, bankCode: string, before: Date): Promise<number> {
  const result = await db.execute(sql`select purge_verification_records(${bankCode}, ${before.toISOString()}::timestamptz) as deleted`);
  const [row] = rowsOf<{ deleted: number | string }>(result);
  return Number(row?.deleted ?? 0);
}

/** Each bank's records past its verificationRecordRetentionYears (the scheduled purge, plugins/retention.ts). */
export async function purgeRecordsPastRetention(db: Database, banks: readonly BankConfig[], now: Date): Promise<number> {
  let deleted = 0;
  for (const bank of banks) deleted += await purgeRecords(db, bank.code, yearsBefore(now, recordRetentionYearsOf(bank)));
  return deleted;
}
