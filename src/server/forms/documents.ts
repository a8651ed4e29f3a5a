import { sql } from 'drizzle-orm';
import type { Database } from '../db/index.js';
import { applicationForms } from '../db/schema.js';

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
