import { and, eq, notExists, sql } from 'drizzle-orm';
import type { Database } from '../db/index.js';
import { oncePerDatabase } from '../db/prepared.js';
import { applicationForms, applicationPins, applications, mailQueue } from '../db/schema.js';
import { timestamptz } from '../db/values.js';
import { enqueueMailsOf, queuedClaim, type ClaimedMail } from '../mail/queue-rows.js';
import type { MailMessage } from '../mail/types.js';

/**
 * The stored answers of the generic engine's forms: one jsonb document per application and
 * form (migration 0005). Written whole on every accepted post, so a refused post leaves the
 * document as it was.
 */

/** One form as stored: its answers, and the label of each chosen value (domain/forms/labels.ts). */
export interface StoredForm {
  answers: Record<string, unknown>;
  labels: Record<string, string | string[]>;
}

/** Stores (or replaces) one form's answers. */
export async function storeDocument(db: Database, applicationId: string, form: string, answers: Record<string, unknown>, now: Date, labels: StoredForm['labels'] = {}): Promise<void> {
  await db
    .insert(applicationForms)
    .values({ applicationId, form, answers, labels, updatedAt: now })
    .onConflictDoUpdate({
      target: [applicationForms.applicationId, applicationForms.form],
      set: { answers: sql`excluded.answers`, labels: sql`excluded.labels`, updatedAt: sql`excluded.updated_at` },
    });
}

/**
 * What storing a step came to: stored (with the application's new revision, and the first
 * step's mail when the statement queued it), or why not.
 */
export type StepStoreOutcome = { stored: true; revision: number; firstStepMail: ClaimedMail | null } | { stored: false; reason: 'locked' | 'conflict' };

/**
 * The mail the application's first stored step sends (the resume mail), queued by the step's own
 * statement only when that statement makes the revision 1, claimed by this process (ADR 0041).
 */
export interface FirstStepMail {
  message: MailMessage;
  discardAfter: Date;
  lockedUntil: Date;
}

/**
 * The statement of storeDocumentBeforePin, with or without the revision's check, and with or
 * without the first step's mail, built once and prepared (db/prepared.ts): it runs on every
 * step a page posts. Its values are placeholders: applicationId, form, answers and labels (as JSON text),
 * now (ISO), expectedRevision; with the mail, mail (its JSON), mailDiscardAfter and
 * mailLockedUntil (ISO).
 */
function stepStore(db: Database, checksRevision: boolean, queuesMail: boolean) {
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
      .returning({ id: applications.id, revision: applications.revision }),
  );
  // Only the statement that makes the first revision queues it: a device that stored first sent it.
  const mailed = db
    .$with('mailed', { id: mailQueue.id })
    .as(
      enqueueMailsOf(
        'resume',
        sql`select ${open.id}, ${sql.placeholder('mail')}::jsonb from ${open} where ${open.revision} = 1`,
        now,
        sql.placeholder('mailDiscardAfter'),
        sql.placeholder('mailLockedUntil'),
      ),
    );
  return (
    db
      .with(...(queuesMail ? [open, mailed] : [open]))
      .insert(applicationForms)
      // Typed here: a select's parameters have no column to take their type from.
      .select((qb) =>
        qb
          .select({
            applicationId: open.id,
            form: sql`${sql.placeholder('form')}::varchar`.as('form'),
            answers: sql`${sql.placeholder('answers')}::jsonb`.as('answers'),
            labels: sql`${sql.placeholder('labels')}::jsonb`.as('labels'),
            updatedAt: timestamptz(now).as('updated_at'),
          })
          .from(open),
      )
      .onConflictDoUpdate({
        target: [applicationForms.applicationId, applicationForms.form],
        set: { answers: sql`excluded.answers`, labels: sql`excluded.labels`, updatedAt: sql`excluded.updated_at` },
      })
      .returning({
        revision: sql<number>`(select ${open.revision} from ${open})`,
        mailId: queuesMail ? sql<string | null>`(select ${mailed.id} from ${mailed})` : sql<string | null>`null`,
      })
      .prepare(`step_store${checksRevision ? '_of_revision' : ''}${queuesMail ? '_first' : ''}`)
  );
}

const stepStoresOf = oncePerDatabase((db) => ({
  any: { plain: stepStore(db, false, false), withFirstMail: stepStore(db, false, true) },
  ofRevision: { plain: stepStore(db, true, false), withFirstMail: stepStore(db, true, true) },
}));

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
  { answers, labels }: StoredForm,
  now: Date,
  expectedRevision?: number,
  firstStepMail?: FirstStepMail,
): Promise<StepStoreOutcome> {
  const statements = stepStoresOf(db);
  const values = { applicationId, form, answers: JSON.stringify(answers), labels: JSON.stringify(labels), now: now.toISOString() };
  const mailValues = firstStepMail
    ? { mail: JSON.stringify(firstStepMail.message), mailDiscardAfter: firstStepMail.discardAfter.toISOString(), mailLockedUntil: firstStepMail.lockedUntil.toISOString() }
    : {};
  const forms = expectedRevision === undefined ? statements.any : statements.ofRevision;
  const statement = firstStepMail ? forms.withFirstMail : forms.plain;
  const [stored] = await statement.execute({ ...values, ...mailValues, ...(expectedRevision === undefined ? {} : { expectedRevision }) });
  if (stored) {
    const mail = firstStepMail && stored.mailId ? queuedClaim(stored.mailId, 'resume', firstStepMail.message, firstStepMail.discardAfter, firstStepMail.lockedUntil) : null;
    return { stored: true, revision: Number(stored.revision), firstStepMail: mail };
  }
  const [row] = await db.select({ pinSet: applications.pinSet }).from(applications).where(eq(applications.id, applicationId));
  return { stored: false, reason: !row || row.pinSet || expectedRevision === undefined ? 'locked' : 'conflict' };
}
