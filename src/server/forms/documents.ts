import { and, eq, notExists, sql } from 'drizzle-orm';
import type { Database } from '../db/index.js';
import { applicationForms, applicationPins, applications } from '../db/schema.js';

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
 * Stores (or replaces) one form's answers unless the application's PIN is set; false when it
 * is (or the application is gone). One statement: it updates the application's row (its lock
 * orders this store and the PIN's transaction) only while pin_set is false, and stores the
 * answers only through the row it updated. Waiting for the PIN's lock, the update re-checks
 * pin_set on the row the PIN left (migration 0014); the NOT EXISTS refuses a PIN stored before.
 */
export async function storeDocumentBeforePin(db: Database, applicationId: string, form: string, answers: Record<string, unknown>, now: Date): Promise<boolean> {
  const open = db.$with('open').as(
    db
      .update(applications)
      .set({ updatedAt: now })
      .where(
        and(
          eq(applications.id, applicationId),
          eq(applications.pinSet, false),
          notExists(db.select({ pin: applicationPins.applicationId }).from(applicationPins).where(eq(applicationPins.applicationId, applicationId))),
        ),
      )
      .returning({ id: applications.id }),
  );
  const stored = await db
    .with(open)
    .insert(applicationForms)
    // Typed here: a select's parameters have no column to take their type from.
    .select((qb) =>
      qb
        .select({
          applicationId: open.id,
          form: sql`${form}::varchar`.as('form'),
          answers: sql`${JSON.stringify(answers)}::jsonb`.as('answers'),
          updatedAt: sql`${now.toISOString()}::timestamptz`.as('updated_at'),
        })
        .from(open),
    )
    .onConflictDoUpdate({
      target: [applicationForms.applicationId, applicationForms.form],
      set: { answers: sql`excluded.answers`, updatedAt: sql`excluded.updated_at` },
    })
    .returning({ id: applicationForms.applicationId });
  return stored.length > 0;
}
