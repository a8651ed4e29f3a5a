import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/index.js';
import { oncePerDatabase } from '../db/prepared.js';
import { applicationPins, applications } from '../db/schema.js';
import { storedAnswerFields, storedAnswersFrom, type StoredAnswers } from '../forms/answers.js';
import type { FormCatalogue } from '../forms/catalogue.js';
import { timestamptz } from '../db/values.js';

/**
 * The statements of POST /api/pin on the database (ADR 0040): the PIN's store in one
 * statement, guarded by the application's row, and the read the route judges again by when
 * that statement stored nothing.
 */

/** A PIN the route has judged, to store (its binding is this application's: pin/binding.ts). */
export interface PinWrite {
  applicationId: string;
  keyId: string;
  /** The ciphertext as received. */
  ciphertext: string;
  now: Date;
  /** The revision of the answers the PIN was judged by (applications.revision). */
  revision: number;
}

/**
 * storePin's statement, built once and prepared (db/prepared.ts): every application runs it.
 * Placeholders: applicationId, keyId, ciphertext, now (ISO), revision.
 */
const pinStoreOf = oncePerDatabase((db) => {
  const id = sql.placeholder('applicationId');
  const now = sql.placeholder('now');
  const set = db.$with('set').as(
    db
      .update(applications)
      .set({ updatedAt: timestamptz(now), pinSet: true })
      .where(and(eq(applications.id, id), eq(applications.pinSet, false), eq(applications.revision, sql.placeholder('revision'))))
      .returning({ id: applications.id }),
  );
  // No ON CONFLICT: a PIN row without pin_set would be a broken invariant, and fails the statement.
  const inserted = db.$with('inserted').as(
    db
      .insert(applicationPins)
      .select((qb) =>
        qb
          .select({
            applicationId: set.id,
            keyId: sql`${sql.placeholder('keyId')}::varchar`.as('key_id'),
            ciphertext: sql`${sql.placeholder('ciphertext')}::text`.as('ciphertext'),
            createdAt: timestamptz(now).as('created_at'),
          })
          .from(set),
      )
      .returning({ id: applicationPins.applicationId }),
  );
  return db
    .with(set, inserted)
    .select({ stored: sql<boolean>`exists (select 1 from ${inserted})`, pinSet: applications.pinSet })
    .from(applications)
    .where(eq(applications.id, id))
    .prepare('pin_store');
});

/**
 * Stores the PIN in one statement, unless the application's row has moved since the PIN was
 * judged. `set` marks the row (pin_set) only while no PIN is set and its revision is the one
 * judged; the PIN is inserted only through the row `set` returns. A form step and a second PIN
 * wait for this row's lock and then re-check their own WHERE (pin_set, revision) on the row as
 * it was left (PostgreSQL, READ COMMITTED), as this statement re-checks its own against theirs:
 * the PIN is stored only against the answers it was judged by, and once. Nothing stored:
 * whether a PIN is set, as the statement saw it.
 */
export async function storePin(db: Database, write: PinWrite): Promise<{ stored: true } | { stored: false; pinSet: boolean }> {
  const [row] = await pinStoreOf(db).execute({ ...write, now: write.now.toISOString() });
  if (!row) throw new Error('the application of the PIN has no row');
  return row.stored ? { stored: true } : { stored: false, pinSet: row.pinSet };
}

/** The application as the PIN is judged by, read anew: its answers (with their revision) and whether a PIN is set. */
export async function pinStateOf(db: Database, catalogue: FormCatalogue, applicationId: string): Promise<{ pinSet: boolean; stored: StoredAnswers }> {
  const [row] = await db
    .select({ ...storedAnswerFields, pinSet: applications.pinSet })
    .from(applications)
    .where(eq(applications.id, applicationId));
  if (!row) throw new Error('the application of the PIN has no row');
  const { pinSet, ...stored } = row;
  return { pinSet, stored: storedAnswersFrom(catalogue, stored) };
}
