import { getTableName, sql, type Column, type SQL } from 'drizzle-orm';

/**
 * A column as "table"."column", always. Drizzle writes a column of a one-table query without
 * its table, so in a correlated subquery (select … from ekyc_sessions where application_id =
 * ${applications.id}) the outer "id" would silently name the inner table's own id.
 */
export function qualified(column: Column): SQL {
  return sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
}
