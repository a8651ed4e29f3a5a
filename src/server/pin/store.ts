import { and, eq, exists, gt, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import type { Database } from '../db/index.js';
import { oncePerDatabase } from '../db/prepared.js';
import { applicationPins, applications, pinBindings } from '../db/schema.js';
import { storedAnswerFields, storedAnswersFrom, type StoredAnswers } from '../forms/answers.js';
import type { FormCatalogue } from '../forms/catalogue.js';
import { timestamptz } from '../db/values.js';

/**
 * The statements of POST /api/pin on the database (ADR 0040): the PIN's store in one
 * statement, guarded by the application's row, and the read the route judges again by when
 * that statement stored nothing.
 */

/** A PIN the route has judged, to store. */
export interface PinWrite {
  applicationId: string;
  /** SHA-256 of the binding the ciphertext carries: it must be a live one of this application. */
  bindingHash: string;
  keyId: string;
  /** The ciphertext as received. */
  ciphertext: string;
  now: Date;
  /** The revision of the answers the PIN was judged by (applications.revision). */
  revision: number;
}

/** What the statements saw: whether the binding is live, whether a PIN is set. */
export interface PinFacts {
  bindingLive: boolean;
  pinSet: boolean;
}

/** What liveBinding checks: a write's values, or a prepared statement's placeholders (now then an ISO string). */
type BindingOf = { [K in 'applicationId' | 'bindingHash' | 'now']: PinWrite[K] | SQLWrapper };

/** The binding of `write` is one of its application's, not expired (a ciphertext captured from another application carries none). */
function liveBinding(db: Database, write: BindingOf) {
  return sql<boolean>`${exists(
    db
      .select({ hash: pinBindings.bindingHash })
      .from(pinBindings)
      .where(and(eq(pinBindings.bindingHash, write.bindingHash), eq(pinBindings.applicationId, write.applicationId), gt(pinBindings.expiresAt, write.now))),
  )}`;
}

/**
 * storePin's statement, built once and prepared (db/prepared.ts): every application runs it.
 * Placeholders: applicationId, bindingHash, keyId, ciphertext, now (ISO), revision.
 */
const pinStoreOf = oncePerDatabase((db) => {
  const id = sql.placeholder('applicationId');
  const now = sql.placeholder('now');
  const binding = { applicationId: id, bindingHash: sql.placeholder('bindingHash'), now };
  const set = db.$with('set').as(
    db
      .update(applications)
      .set({ updatedAt: timestamptz(now), pinSet: true })
      .where(and(eq(applications.id, id), eq(applications.pinSet, false), eq(applications.revision, sql.placeholder('revision')), liveBinding(db, binding)))
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
  const spent = db.$with('spent').as(
    db
      .delete(pinBindings)
      .where(inArray(pinBindings.applicationId, db.select({ id: set.id }).from(set)))
      .returning({ hash: pinBindings.bindingHash }),
  );
  return db
    .with(set, inserted, spent)
    .select({ stored: sql<boolean>`exists (select 1 from ${inserted})`, bindingLive: liveBinding(db, binding), pinSet: applications.pinSet })
    .from(applications)
    .where(eq(applications.id, id))
    .prepare('pin_store');
});

/**
 * Stores the PIN in one statement, unless the application's row has moved since the PIN was
 * judged. `set` marks the row (pin_set) only while no PIN is set, its revision is the one
 * judged and the binding is live; the PIN is inserted and the application's bindings are spent
 * only through the row `set` returns. A form step and a second PIN wait for this row's lock
 * and then re-check their own WHERE (pin_set, revision) on the row as it was left (PostgreSQL,
 * READ COMMITTED), as this statement re-checks its own against theirs: the PIN is stored only
 * against the answers it was judged by, and once. Nothing stored: what the statement saw.
 */
export async function storePin(db: Database, write: PinWrite): Promise<{ stored: true } | ({ stored: false } & PinFacts)> {
  const [row] = await pinStoreOf(db).execute({ ...write, now: write.now.toISOString() });
  if (!row) throw new Error('the application of the PIN has no row');
  return row.stored ? { stored: true } : { stored: false, bindingLive: row.bindingLive, pinSet: row.pinSet };
}

/** The application as the PIN is judged by, read anew: its answers (with their revision), its binding, its PIN. */
export async function pinStateOf(
  db: Database,
  catalogue: FormCatalogue,
  write: Pick<PinWrite, 'applicationId' | 'bindingHash' | 'now'>,
): Promise<PinFacts & { stored: StoredAnswers }> {
  const [row] = await db
    .select({ ...storedAnswerFields, bindingLive: liveBinding(db, write), pinSet: applications.pinSet })
    .from(applications)
    .where(eq(applications.id, write.applicationId));
  if (!row) throw new Error('the application of the PIN has no row');
  const { bindingLive, pinSet, ...stored } = row;
  return { bindingLive, pinSet, stored: storedAnswersFrom(catalogue, stored) };
}
