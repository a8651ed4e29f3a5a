import { and, eq, getTableColumns, getTableName, is, sql } from 'drizzle-orm';
import { PgTable, pgSchema, text } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMigrations } from '../../src/server/db/migrate.js';
import * as schema from '../../src/server/db/schema.js';
import { backends, startTestServer, type TestServer } from './helpers.js';

const tables = Object.values(schema as Record<string, unknown>).filter((value): value is PgTable => is(value, PgTable));

// The SQL standard's catalogue view, to compare the migrated database with schema.ts.
const columns = pgSchema('information_schema').table('columns', {
  tableSchema: text('table_schema'),
  tableName: text('table_name'),
  columnName: text('column_name'),
  isNullable: text('is_nullable'),
});

describe.each(backends)('database schema ($name)', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('records every migration file as applied', async () => {
    const rows = await server.app.db.select({ name: schema.schemaMigrations.name }).from(schema.schemaMigrations);
    expect(rows.map((row) => row.name)).toEqual((await readMigrations()).map((file) => file.name));
  });

  // drizzle maps these from PostgreSQL's text; on PGlite the client is given the parsers once
  // instead of with every query (db/pglite-client.ts), which must not change what comes back.
  it('answers dates, times and intervals as their text, for drizzle to map', async () => {
    const { rows } = (await server.app.db.execute(
      sql`SELECT timestamptz '2027-01-15 00:00:00+00' AS at, timestamp '2027-01-15 09:00' AS local, date '2027-01-15' AS day, interval '1 day' AS span, ARRAY[date '2027-01-15'] AS days`,
    )) as unknown as { rows: Record<string, unknown>[] };
    expect(rows[0]).toEqual({ at: '2027-01-15 00:00:00+00', local: '2027-01-15 09:00:00', day: '2027-01-15', span: '1 day', days: '{2027-01-15}' });
    const [row] = await server.app.db
      .select({ at: sql<string>`timestamptz '2027-01-15 00:00:00+00'`.mapWith(String), name: schema.schemaMigrations.name })
      .from(schema.schemaMigrations)
      .limit(1);
    expect(row?.at).toBe('2027-01-15 00:00:00+00');
  });

  it('has every column schema.ts declares, with its nullability, and no other', async () => {
    expect(tables.length).toBeGreaterThanOrEqual(6);
    for (const table of tables) {
      const rows = await server.app.db
        .select({ name: columns.columnName, nullable: columns.isNullable })
        .from(columns)
        .where(and(eq(columns.tableName, getTableName(table)), eq(columns.tableSchema, sql`current_schema()`)));
      const actual = new Map(rows.map((row) => [row.name, row.nullable === 'NO']));
      const declared = Object.values(getTableColumns(table));
      for (const column of declared) {
        expect(actual.get(column.name), `${getTableName(table)}.${column.name}`).toBe(column.notNull);
      }
      expect(actual.size, getTableName(table)).toBe(declared.length);
    }
  });
});
