import { and, eq, notExists, sql } from 'drizzle-orm';
import type { Database } from '../db/index.js';
import { oncePerDatabase } from '../db/prepared.js';
import { applicationForms, applicationPins, applications } from '../db/schema.js';
import { timestamptz } from '../db/values.js';

/**
 * The stored answers of the generic engine's forms: one jsonb document per application and
 * form (migration 0005). Written whole on every accepted post, so a refused post leaves the
 * document as it was.
 */

/** Stores (or replaces) one form's answers. */
export async function storeDocument(db: Database, applicationId: string, form: string, answers: Record<string, unknown>, now: Date): Promise<void> {
  await db
    .insert(applicationForms)
    .values({ applicationId, form, answers, updatedAt: now })
    .onConflictDoUpdate({
      target: [applicationForms.applicationId, applicationForms.form],
      set: { answers: sql`excluded.answers`, updatedAt: sql`excluded.updated_at` },
    });
}

/**
 * What storing a step came to: stored (with the application's new revision, and its mail
 * address for the mail the first stored step sends), or why not.
 */
export type StepStoreOutcome = { stored: true; revision: number; mailAddress: string } | { stored: false; reason: 'locked' | 'conflict' };

/**
 * The statement of storeDocumentBeforePin, with or without the revision's check, built once
 * and prepared (db/prepared.ts): it runs on every step a page posts. Its values are
 * placeholders: applicationId, form, answers (as JSON text), now (ISO), expectedRevision.
 */
function stepStore(db: Database, checksRevision: boolean) {
  const applicationId = sql.placeholder('applicationId');
  const now = sql.placeholder('now');
  const open = db.$with('open').as(
    db
      .update(applications)
      .set({ updatedAt: sql`${now}`, revision: sql`${applications.revision} + 1` })
      .where(
        and(
          eq(applications.id, applicationId),
          eq(applications.pinSet, false),
          checksRevision ? eq(applications.revision, sql.placeholder('expectedRevision')) : undefined,
          notExists(db.select({ pin: applicationPins.applicationId }).from(applicationPins).where(eq(applicationPins.applicationId, applicationId))),
        ),
      )
      .returning({ id: applications.id, revision: applications.revision, mailAddress: applications.mailAddress }),
  );
  return (
    db
      .with(open)
      .insert(applicationForms)
      // Typed here: a select's parameters have no column to take their type from.
      .select((qb) =>
        qb
          .select({
            applicationId: open.id,
            form: sql`${sql.placeholder('form')}::varchar`.as('form'),
            answers: sql`${sql.placeholder('answers')}::jsonb`.as('answers'),
            updatedAt: timestamptz(now).as('updated_at'),
          })
          .from(open),
      )
      .onConflictDoUpdate({
        target: [applicationForms.applicationId, applicationForms.form],
        set: { answers: sql`excluded.answers`, updatedAt: sql`excluded.updated_at` },
      })
      .returning({ revision: sql<number>`(select ${open.revision} from ${open})`, mailAddress: sql<string>`(select ${open.mailAddress} from ${open})` })
      .prepare(checksRevision ? 'step_store_of_revision' : 'step_store')
  );
}

const stepStoresOf = oncePerDatabase((db) => ({ any: stepStore(db, false), ofRevision: stepStore(db, true) }));

/**
 * Stores (or replaces) one form's answers unless the application's PIN is set, or, when the
 * page sent the revision it read (`expectedRevision`), unless the application has been written
 * since (another device or tab: ADR 0030). One statement: it updates the application's row
 * (its lock orders this store and the PIN's statement, and two stores of two devices) only
 * while pin_set is false and the revision is the page's, adds one to the revision, and stores
 * the answers only through the row it updated. Waiting for another transaction's lock, the
 * update re-checks its WHERE on the row as that transaction left it (migration 0014); the NOT
 * EXISTS refuses a PIN stored before. Only a refusal reads the row again, to say why.
 */
export async function storeDocumentBeforePin(
  db: Database,
  applicationId: string,
  form: string,
  answers: Record<string, unknown>,
  now: Date,
  expectedRevision?: number,
): Promise<StepStoreOutcome> {
  const statements = stepStoresOf(db);
  const values = { applicationId, form, answers: JSON.stringify(answers), now: now.toISOString() };
  const [stored] = expectedRevision === undefined ? await statements.any.execute(values) : await statements.ofRevision.execute({ ...values, expectedRevision });
  if (stored) return { stored: true, revision: Number(stored.revision), mailAddress: stored.mailAddress };
  const [row] = await db.select({ pinSet: applications.pinSet }).from(applications).where(eq(applications.id, applicationId));
  return { stored: false, reason: !row || row.pinSet || expectedRevision === undefined ? 'locked' : 'conflict' };
}
