import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * The application number: <bank code>-<yyMMdd>-<6-digit sequence>, e.g. 0177-250615-000042:
 * the bank, the day of acceptance in Japan time, and a counter per bank and day starting at
 * 000001 (application_number_counters). 18 characters, readable over the phone, and sorting
 * by time within a bank.
 */

/** Everything of the number but its sequence: '0177-250615-'. */
export function applicationNumberPrefix(bankCode: string, japanDay: string): string {
  return `${bankCode}-${japanDay.slice(2).replace(/-/g, '')}-`;
}

export function formatApplicationNumber(bankCode: string, japanDay: string, sequence: number): string {
  return `${applicationNumberPrefix(bankCode, japanDay)}${String(sequence).padStart(6, '0')}`;
}

/**
 * formatApplicationNumber in SQL, for the sequence a statement draws (`sequence`, an integer
 * expression) after `prefix` (applicationNumberPrefix, or a placeholder for it). lpad would cut
 * a seventh digit, which the counter's CHECK (1 to 999999, migration 0003) never lets a
 * statement draw: the 1,000,000th completion of a bank's day fails.
 */
export function applicationNumberSql(prefix: string | SQLWrapper, sequence: SQL): SQL {
  return sql`${prefix}::text || lpad(${sequence}::text, 6, '0')`;
}
