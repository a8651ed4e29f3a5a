import { sql } from 'drizzle-orm';
import { integer, pgTable, text, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';

/**
 * Drizzle view of the tables created by migrations/*.sql. The SQL files are the source of
 * truth (they run on both PGlite and PostgreSQL and are reviewed as SQL); these definitions
 * only give the queries their types, so a new migration must be mirrored here by hand.
 * tests/api/db.test.ts checks that every column declared here exists in the migrated database.
 */

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const applicationTypes = ['GENERAL', 'CHILD'] as const;
export type ApplicationType = (typeof applicationTypes)[number];

export const schemaMigrations = pgTable('schema_migrations', {
  name: text('name').primaryKey(),
  appliedAt: timestamptz('applied_at').notNull().default(sql`now()`),
});

export const applications = pgTable('applications', {
  id: uuid('id').primaryKey().defaultRandom(),
  bankCode: varchar('bank_code', { length: 4 }).notNull(),
  applicationType: varchar('application_type', { length: 8, enum: applicationTypes }).notNull(),
  mailAddress: varchar('mail_address', { length: 254 }).notNull(),
  channel: varchar('channel', { length: 20 }),
  deviceId: varchar('device_id', { length: 36 }),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

export const verificationCodes = pgTable('verification_codes', {
  id: uuid('id').primaryKey(),
  bankCode: varchar('bank_code', { length: 4 }).notNull(),
  applicationType: varchar('application_type', { length: 8, enum: applicationTypes }).notNull(),
  mailHash: varchar('mail_hash', { length: 64 }).notNull(),
  codeHash: varchar('code_hash', { length: 64 }).notNull(),
  attempts: integer('attempts').notNull().default(0),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  expiresAt: timestamptz('expires_at').notNull(),
  usedAt: timestamptz('used_at'),
});

export const authTokens = pgTable('auth_tokens', {
  tokenHash: varchar('token_hash', { length: 64 }).primaryKey(),
  applicationId: uuid('application_id')
    .notNull()
    .references(() => applications.id, { onDelete: 'cascade' }),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  lastSeenAt: timestamptz('last_seen_at').notNull().defaultNow(),
  expiresAt: timestamptz('expires_at').notNull(),
});

export const maintenanceWindows = pgTable('maintenance_windows', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  startedAt: timestamptz('started_at').notNull(),
  endedAt: timestamptz('ended_at').notNull(),
  note: text('note'),
});

export const notifications = pgTable('notifications', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  bankCode: varchar('bank_code', { length: 4 }).notNull(),
  contents: text('contents').notNull(),
  startsAt: timestamptz('starts_at'),
  endsAt: timestamptz('ends_at'),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});
