import { and, desc, eq, gt, isNull, lt, sql, type SQLWrapper } from 'drizzle-orm';
import type { Database } from '../db/index.js';
import { oncePerDatabase } from '../db/prepared.js';
import { applications, authTokens, verificationCodes, type ApplicationType } from '../db/schema.js';
import { claimedMailPlaceholderValues, insertClaimedMail, type QueuedMail } from '../mail/queue-rows.js';
import { timestamptz } from '../db/values.js';

/**
 * The statements of the e-mail verification (routes/verification-codes.ts) that every
 * application runs: register's store of a code, the check of a code (verify's and resume's)
 * and verify's creation of the application. Built once per database and prepared
 * (db/prepared.ts).
 */

/** A code is good for 5 wrong tries (and CODE_VALIDITY_MINUTES, routes/verification-codes.ts); the 6th try fails even with the right code. */
export const MAX_WRONG_ATTEMPTS = 5;

/** A code not used, not expired and not tried too often; `now` a time or a placeholder of one (ISO). */
export function liveCode(now: Date | SQLWrapper) {
  return and(isNull(verificationCodes.usedAt), gt(verificationCodes.expiresAt, now), lt(verificationCodes.attempts, MAX_WRONG_ATTEMPTS));
}

/**
 * storeCode's statement, built once and prepared (db/prepared.ts). Placeholders: bankCode,
 * applicationType, mailHash, id, codeHash, now and expiresAt (ISO), and the mail's
 * (claimedMailPlaceholderValues).
 */
const codeStoreOf = oncePerDatabase((db) => {
  const now = sql.placeholder('now');
  const replaced = db.$with('replaced').as(
    db
      .update(verificationCodes)
      .set({ expiresAt: timestamptz(now) })
      .where(
        and(
          eq(verificationCodes.bankCode, sql.placeholder('bankCode')),
          eq(verificationCodes.applicationType, sql.placeholder('applicationType')),
          eq(verificationCodes.mailHash, sql.placeholder('mailHash')),
          isNull(verificationCodes.usedAt),
          gt(verificationCodes.expiresAt, now),
        ),
      )
      .returning({ id: verificationCodes.id }),
  );
  const stored = db.$with('stored').as(
    db
      .insert(verificationCodes)
      .values({
        id: sql`${sql.placeholder('id')}`,
        bankCode: sql`${sql.placeholder('bankCode')}`,
        applicationType: sql`${sql.placeholder('applicationType')}`,
        mailHash: sql`${sql.placeholder('mailHash')}`,
        codeHash: sql`${sql.placeholder('codeHash')}`,
        attempts: 0,
        createdAt: timestamptz(now),
        expiresAt: timestamptz(sql.placeholder('expiresAt')),
      })
      .returning({ id: verificationCodes.id }),
  );
  return insertClaimedMail(db.with(replaced, stored)).prepare('verification_code_store');
});

/**
 * Stores a new code and queues its mail, claimed (claimedMailRow), in one statement, all or
 * nothing without a transaction around it: the new code replaces the pending ones of the same
 * address, bank and type.
 */
export async function storeCode(
  db: Database,
  code: { id: string; bankCode: string; applicationType: ApplicationType; mailHash: string; codeHash: string; now: Date; expiresAt: Date },
  mail: QueuedMail,
): Promise<void> {
  await codeStoreOf(db).execute({ ...code, now: code.now.toISOString(), expiresAt: code.expiresAt.toISOString(), ...claimedMailPlaceholderValues(mail.values) });
}

/**
 * The code checks' two statements, built once and prepared (db/prepared.ts). Placeholders:
 * bankCode, applicationType, mailHash, now (ISO); id.
 */
const codeChecksOf = oncePerDatabase((db) => ({
  // At most one code is live per address, bank and type (register expires the others).
  pending: db
    .select({ id: verificationCodes.id, codeHash: verificationCodes.codeHash })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.bankCode, sql.placeholder('bankCode')),
        eq(verificationCodes.applicationType, sql.placeholder('applicationType')),
        eq(verificationCodes.mailHash, sql.placeholder('mailHash')),
        liveCode(sql.placeholder('now')),
      ),
    )
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1)
    .prepare('verification_code_pending'),
  // Counted in the database, atomically, so parallel guesses cannot exceed the limit.
  wrongTry: db
    .update(verificationCodes)
    .set({ attempts: sql`${verificationCodes.attempts} + 1` })
    .where(and(eq(verificationCodes.id, sql.placeholder('id')), lt(verificationCodes.attempts, MAX_WRONG_ATTEMPTS)))
    .prepare('verification_code_wrong_try'),
}));

/** The live code of an address, bank and type, with its code's hash; undefined when there is none. */
export async function pendingCode(
  db: Database,
  of: { bankCode: string; applicationType: ApplicationType; mailHash: string; now: Date },
): Promise<{ id: string; codeHash: string } | undefined> {
  const [pending] = await codeChecksOf(db).pending.execute({ ...of, now: of.now.toISOString() });
  return pending;
}

/** A wrong code tried against the code `id`: one try more, up to MAX_WRONG_ATTEMPTS. */
export async function countWrongTry(db: Database, id: string): Promise<void> {
  await codeChecksOf(db).wrongTry.execute({ id });
}

/** What verify creates an application and its session of (channel and deviceId: the landing page's, if well-formed). */
export type ApplicationCreation = {
  codeId: string;
  bankCode: string;
  applicationType: ApplicationType;
  mailAddress: string;
  channel: string | null;
  deviceId: string | null;
  flowVersion: string;
  tokenHash: string;
  now: Date;
  /** The session's end. */
  expiresAt: Date;
};

/**
 * createApplication's statement, built once and prepared (db/prepared.ts). Placeholders: those
 * of ApplicationCreation (times as ISO strings).
 */
const applicationCreationOf = oncePerDatabase((db) => {
  const at = timestamptz(sql.placeholder('now'));
  const claimed = db
    .$with('claimed')
    .as(
      db
        .update(verificationCodes)
        .set({ usedAt: at })
        .where(and(eq(verificationCodes.id, sql.placeholder('codeId')), liveCode(sql.placeholder('now'))))
        .returning({ id: verificationCodes.id }),
    );
  const text = (name: keyof ApplicationCreation) => sql`${sql.placeholder(name)}::varchar`;
  // Typed here: a select's parameters have no column to take their type from.
  const created = db.$with('created', { id: applications.id, revision: applications.revision }).as(
    sql`insert into ${applications} (bank_code, application_type, mail_address, channel, device_id, flow_version, created_at, updated_at)
      select ${text('bankCode')}, ${text('applicationType')}, ${text('mailAddress')}, ${text('channel')}, ${text('deviceId')}, ${text('flowVersion')}, ${at}, ${at}
      from ${claimed} returning id, revision`,
  );
  return db
    .with(claimed, created)
    .insert(authTokens)
    .select((qb) =>
      qb
        .select({
          tokenHash: sql`${text('tokenHash')}`.as('token_hash'),
          applicationId: created.id,
          createdAt: sql`${at}`.as('created_at'),
          lastSeenAt: sql`${at}`.as('last_seen_at'),
          expiresAt: timestamptz(sql.placeholder('expiresAt')).as('expires_at'),
        })
        .from(created),
    )
    // The new application's revision, for the answer verify gives the first page (ADR 0042).
    .returning({ id: authTokens.applicationId, revision: sql<number>`(select ${created.revision} from ${created})` })
    .prepare('verification_code_create_application');
});

/**
 * Claiming the code, creating the application and its token happen together or not at all:
 * one statement, each part only through the row the one before returned. The conditions
 * (liveCode) make a second request with the same code find nothing to claim: no row then.
 */
export function createApplication(db: Database, values: ApplicationCreation) {
  return applicationCreationOf(db).execute({ ...values, now: values.now.toISOString(), expiresAt: values.expiresAt.toISOString() });
}

