import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, customType, date, integer, json, jsonb, pgTable, primaryKey, smallint, text, timestamp, unique, uuid, varchar } from 'drizzle-orm/pg-core';
import { DOCUMENT_TYPES, type EkycStatus } from '../../domain/ekyc.js';
import { multipleAccountsValues } from '../masterdata/types.js';
import type { MailMessage } from '../mail/types.js';

/**
 * Drizzle view of the tables created by migrations/*.sql. The SQL files are the source of
 * truth (they run on both PGlite and PostgreSQL and are reviewed as SQL); these definitions
 * only give the queries their types, so a new migration must be mirrored here by hand.
 * tests/api/db.test.ts checks that every column declared here exists in the migrated database.
 */

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** drizzle 0.45 has no bytea column: node-postgres returns a Buffer, PGlite a Uint8Array. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength)),
});

export const applicationTypes = ['GENERAL', 'CHILD'] as const;
export type ApplicationType = (typeof applicationTypes)[number];

export const genders = ['MAN', 'WOMAN'] as const;
export type Gender = (typeof genders)[number];

export const schemaMigrations = pgTable('schema_migrations', {
  name: text('name').primaryKey(),
  appliedAt: timestamptz('applied_at').notNull().default(sql`now()`),
});

export const applications = pgTable('applications', {
  id: uuid('id').primaryKey().defaultRandom(),
  bankCode: varchar('bank_code', { length: 4 }).notNull(),
  applicationType: varchar('application_type', { length: 8, enum: applicationTypes }).notNull(),
  /** Null only in the stub of a delivered application (0025; ADR 0036), which keeps mailHash instead. */
  mailAddress: varchar('mail_address', { length: 254 }),
  channel: varchar('channel', { length: 20 }),
  deviceId: varchar('device_id', { length: 36 }),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  // 0002: the general steps /personal to /seal-less (spec section 3, 'Application'); their
  // answers moved to application_forms (personal in 0006, workplace in 0007).
  applicationNumber: varchar('application_number', { length: 20 }),
  applicationCompletedAt: timestamptz('application_completed_at'),
  // 0014: set with the PIN (application_pins), for the one-statement store of a form step.
  pinSet: boolean('pin_set').notNull().default(false),
  // 0017: one more with every stored step; a step posted with an older one is refused (ADR 0030).
  revision: integer('revision').notNull().default(0),
  // 0019: the version of the flow the application runs (flows/version.ts); null only before its first start.
  flowVersion: varchar('flow_version', { length: 64 }),
  // 0025: the address's keyed HMAC, set only when the address is removed (ADR 0036): resume still finds the stub.
  mailHash: varchar('mail_hash', { length: 64 }),
});

// 0019: the definitions of the flow versions that applications still run (flows/versions.ts).
export const flowVersions = pgTable('flow_versions', {
  version: varchar('version', { length: 64 }).primaryKey(),
  applicationType: varchar('application_type', { length: 8, enum: applicationTypes }).notNull(),
  definition: json('definition').notNull(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  servedUntil: timestamptz('served_until').notNull(),
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

// 0002: bank master data, a copy of banks/<code>/*.json replaced when they change (masterdata/seed.ts).

export const occupations = pgTable(
  'occupations',
  {
    bankCode: varchar('bank_code', { length: 4 }).notNull(),
    id: integer('id').notNull(),
    name: varchar('name', { length: 25 }).notNull(),
    displayNumber: integer('display_number').notNull(),
    generalDisplay: boolean('general_display').notNull(),
    childDisplay: boolean('child_display').notNull(),
    minDisplayAge: integer('min_display_age'),
    maxDisplayAge: integer('max_display_age'),
    workplaceRequired: boolean('workplace_required').notNull(),
  },
  (table) => [primaryKey({ columns: [table.bankCode, table.id] })],
);

export const branches = pgTable(
  'branches',
  {
    bankCode: varchar('bank_code', { length: 4 }).notNull(),
    code: varchar('code', { length: 3 }).notNull(),
    name: varchar('name', { length: 40 }).notNull(),
    address: varchar('address', { length: 100 }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.bankCode, table.code] })],
);

export const workplaces = pgTable(
  'workplaces',
  {
    bankCode: varchar('bank_code', { length: 4 }).notNull(),
    id: integer('id').notNull(),
    code: varchar('code', { length: 8 }).notNull(),
    name: varchar('name', { length: 25 }).notNull(),
    phoneNumber: varchar('phone_number', { length: 13 }).notNull(),
    multipleAccounts: varchar('multiple_accounts', { length: 13, enum: multipleAccountsValues }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.bankCode, table.id] }), unique().on(table.bankCode, table.code)],
);

export const invitationCodes = pgTable(
  'invitation_codes',
  {
    bankCode: varchar('bank_code', { length: 4 }).notNull(),
    code: varchar('code', { length: 6 }).notNull(),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull(),
    validUntil: date('valid_until', { mode: 'string' }),
  },
  (table) => [primaryKey({ columns: [table.bankCode, table.code] })],
);

// 0016: what each bank's master data was last seeded from (masterdata/fingerprint.ts).
export const masterDataSeeds = pgTable('master_data_seeds', {
  bankCode: varchar('bank_code', { length: 4 }).primaryKey(),
  fingerprint: varchar('fingerprint', { length: 64 }).notNull(),
  seededAt: timestamptz('seeded_at').notNull().defaultNow(),
});

// 0003: PIN, identity check, documents, completion (see the migration's comments).

export const applicationPins = pgTable('application_pins', {
  applicationId: uuid('application_id')
    .primaryKey()
    .references(() => applications.id, { onDelete: 'cascade' }),
  keyId: varchar('key_id', { length: 64 }).notNull(),
  /** The browser's RSA-OAEP ciphertext, base64, as received. */
  ciphertext: text('ciphertext').notNull(),
  createdAt: timestamptz('created_at').notNull(),
});

export const ekycSessions = pgTable('ekyc_sessions', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  applicationId: uuid('application_id')
    .notNull()
    .references(() => applications.id, { onDelete: 'cascade' }),
  applicationType: varchar('application_type', { length: 8, enum: applicationTypes }).notNull(),
  provider: varchar('provider', { length: 20 }).notNull(),
  providerSessionId: varchar('provider_session_id', { length: 100 }).notNull(),
  url: text('url').notNull(),
  status: smallint('status').$type<EkycStatus>().notNull(),
  supplement: boolean('supplement').notNull().default(false),
  startedAt: timestamptz('started_at').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
  decidedAt: timestamptz('decided_at'),
});

export const simulatorOutcomes = ['approve', 'supplement', 'reject', 'pending', 'error'] as const;
export type SimulatorOutcome = (typeof simulatorOutcomes)[number];

export const ekycSimulatorSessions = pgTable('ekyc_simulator_sessions', {
  sessionId: varchar('session_id', { length: 100 }).primaryKey(),
  applicationType: varchar('application_type', { length: 8, enum: applicationTypes }).notNull(),
  returnUrl: text('return_url').notNull(),
  outcome: varchar('outcome', { length: 12, enum: simulatorOutcomes }),
  createdAt: timestamptz('created_at').notNull(),
  decidedAt: timestamptz('decided_at'),
});

/** The relying party's state of an OpenID Connect check (ekyc/oidc.ts; migration 0023). */
export const ekycOidcSessions = pgTable('ekyc_oidc_sessions', {
  sessionId: varchar('session_id', { length: 100 }).primaryKey(),
  state: varchar('state', { length: 100 }).notNull().unique(),
  nonce: varchar('nonce', { length: 100 }).notNull(),
  codeVerifier: varchar('code_verifier', { length: 200 }).notNull(),
  redirectUri: text('redirect_uri').notNull(),
  returnUrl: text('return_url').notNull(),
  createdAt: timestamptz('created_at').notNull(),
  usedAt: timestamptz('used_at'),
  outcome: varchar('outcome', { length: 12, enum: ['approved', 'rejected', 'failed'] }),
  reason: varchar('reason', { length: 200 }),
});

/** The stand-in OpenID provider's sessions, codes, tokens… (migration 0024; ekyc/oidc-standin-store.ts). */
export const oidcStandinStore = pgTable(
  'oidc_standin_store',
  {
    model: varchar('model', { length: 40 }).notNull(),
    id: varchar('id', { length: 200 }).notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    grantId: varchar('grant_id', { length: 200 }),
    uid: varchar('uid', { length: 200 }),
    userCode: varchar('user_code', { length: 200 }),
    expiresAt: timestamptz('expires_at'),
    consumedAt: timestamptz('consumed_at'),
  },
  (table) => [primaryKey({ columns: [table.model, table.id] })],
);

export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    type: varchar('type', { length: 30, enum: DOCUMENT_TYPES }).notNull(),
    /** The file's name in DATA_DIR/documents/<application id>/ until it is imported (0012); null once in `content`. */
    storedName: varchar('stored_name', { length: 100 }),
    /** The re-encoded image (0012); null only for a row whose file awaits its import. */
    content: bytea('content'),
    contentType: varchar('content_type', { length: 20 }).notNull(),
    byteSize: integer('byte_size').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [unique().on(table.applicationId, table.type)],
);

export const applicationNumberCounters = pgTable(
  'application_number_counters',
  {
    bankCode: varchar('bank_code', { length: 4 }).notNull(),
    /** The Japan-time day, YYYY-MM-DD. */
    day: date('day', { mode: 'string' }).notNull(),
    lastValue: integer('last_value').notNull(),
  },
  (table) => [primaryKey({ columns: [table.bankCode, table.day] })],
);

// 0004: the child flow's parent (application_parents), moved into the 'parent' and
// 'parent-workplace' documents of application_forms by 0008.

// 0005: one document per form step of the generic engine (src/server/forms/).

export const applicationForms = pgTable(
  'application_forms',
  {
    applicationId: uuid('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** The form's name: schemas/<form>.schema.json. */
    form: varchar('form', { length: 64 }).notNull(),
    /** The answers as the schema names them, plus the labels of chosen options (x-options.labelAs). */
    answers: jsonb('answers').$type<Record<string, unknown>>().notNull(),
    /** The label of each chosen value, as the page offered it (migration 0030): what the bank reads beside the code. */
    labels: jsonb('labels').$type<Record<string, string | string[]>>().notNull().default({}),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.applicationId, table.form] })],
);

/** 0009: mail not yet taken by the SMTP server (src/server/mail/queue.ts); a row goes once sent. */
export const mailQueue = pgTable('mail_queue', {
  id: uuid('id').primaryKey(),
  /** Queue order among mails due at the same moment. */
  seq: bigserial('seq', { mode: 'number' }).notNull(),
  /** What the mail is, for the log (never its address or text). */
  kind: varchar('kind', { length: 20 }).notNull(),
  message: jsonb('message').$type<MailMessage>().notNull(),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: timestamptz('next_attempt_at').notNull(),
  /** A process sending it holds it until then; after, another may try. */
  lockedUntil: timestamptz('locked_until'),
  /** Not sent by then: dropped (a verification code has expired, a completion mail is stale). */
  discardAfter: timestamptz('discard_after').notNull(),
  /** The SMTP error code of the last failure (no message text: it may quote the address). */
  lastError: varchar('last_error', { length: 200 }),
  createdAt: timestamptz('created_at').notNull(),
  /** 0025: the application the mail is about (completion, resume); null for a verification mail. */
  applicationId: uuid('application_id').references(() => applications.id, { onDelete: 'cascade' }),
});

/** 0010: the hits of each rate-limit key in its current window (src/server/boundary/rate-limits.ts). */
export const rateLimits = pgTable(
  'rate_limits',
  {
    /** The limit: its route ('POST /api/pin') or its own name ('mail'). */
    name: varchar('name', { length: 100 }).notNull(),
    /** HMAC of the limiter's key (a client IP, a mail address's HMAC): no personal data. */
    key: varchar('key', { length: 64 }).notNull(),
    hits: integer('hits').notNull(),
    windowEndsAt: timestamptz('window_ends_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.name, table.key] })],
);

/** 0022: verification records (確認記録), append-only in the database (src/server/records/). */
export const subjectRoles = ['APPLICANT', 'REPRESENTATIVE', 'CHILD'] as const;
export type SubjectRole = (typeof subjectRoles)[number];

export const verificationRecords = pgTable('verification_records', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  bankCode: varchar('bank_code', { length: 4 }).notNull(),
  applicationId: uuid('application_id').notNull(),
  applicationType: varchar('application_type', { length: 8, enum: applicationTypes }).notNull(),
  ekycSessionId: integer('ekyc_session_id'),
  subjectRole: varchar('subject_role', { length: 16, enum: subjectRoles }).notNull(),
  subject: jsonb('subject').$type<Record<string, unknown>>().notNull(),
  method: varchar('method', { length: 40 }).notNull(),
  provider: varchar('provider', { length: 20 }).notNull(),
  providerReference: varchar('provider_reference', { length: 100 }).notNull(),
  evidence: jsonb('evidence').$type<Record<string, unknown>>().notNull(),
  verifiedAt: timestamptz('verified_at').notNull(),
  recordedAt: timestamptz('recorded_at').notNull(),
  corrects: bigint('corrects', { mode: 'number' }),
  correctionReason: text('correction_reason'),
});

/** 0021: the hand-off of each completed application to its bank (src/server/delivery/); kept once delivered. */
export const bankDeliveries = pgTable('bank_deliveries', {
  applicationId: uuid('application_id')
    .primaryKey()
    .references(() => applications.id, { onDelete: 'cascade' }),
  bankCode: varchar('bank_code', { length: 4 }).notNull(),
  attempts: integer('attempts').notNull().default(0),
  /** Null once delivered (or given up by an operator's choice): nothing more to try. */
  nextAttemptAt: timestamptz('next_attempt_at'),
  /** A process delivering it holds it until then; after, another may try. */
  lockedUntil: timestamptz('locked_until'),
  /** The HTTP status or network error code of the last failure, never a body. */
  lastError: varchar('last_error', { length: 60 }),
  deliveredAt: timestamptz('delivered_at'),
  createdAt: timestamptz('created_at').notNull(),
  /** 0025: SHA-256 (hex) of the body the bank answered 2xx to; the body itself is never stored. */
  payloadSha256: varchar('payload_sha256', { length: 64 }),
  /** 0025: when the application's personal data was removed (ADR 0036); no re-send after. */
  minimizedAt: timestamptz('minimized_at'),
});
