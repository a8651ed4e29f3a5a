import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, lte } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { messages } from '../../domain/messages.js';
import { firstPinError, pinContextOf, type PinApplicationFields, type PinContext, type PinPerson } from '../../domain/rules/index.js';
import { storedAnswersOf, type StoredAnswers } from '../forms/answers.js';
import type { FormCatalogue } from '../forms/catalogue.js';
import type { Database } from '../db/index.js';
import { applicationPins, applications, pinBindings } from '../db/schema.js';
import { httpMessages } from '../http-messages.js';
import { applicationOf, requireApplication, requireApplicationWithAnswers, storedAnswersOfRequest } from '../plugins/auth.js';
import { validateBody } from '../validation.js';

/**
 * The cash-card PIN (spec sections 4, 5 and 7).
 *
 * GET /api/public-key -> { keyId, keyCode, binding }
 *   keyCode: the current RSA public key, SPKI DER in base64 (pin/keys.ts); keyId names it.
 *   binding: a random value for this application (only its SHA-256 is stored), valid for
 *   BINDING_VALIDITY_MS or until the PIN is set. 409 when the PIN is already set.
 *
 * POST /api/pin { code, keyId? } -> 200 {}
 *   code: base64 of RSA-OAEP (SHA-256) over the UTF-8 JSON {"pin":"1234","binding":"<binding>"}
 *   under the key keyId (default: the current key). Web Crypto:
 *     encrypt({ name: 'RSA-OAEP' }, await importKey('spki', der, { name: 'RSA-OAEP', hash: 'SHA-256' }, …), json)
 *   400 { message: messages.badRequest } when it does not decrypt (PKCS#1 v1.5 ciphertexts
 *   included), is not such JSON, or carries a binding that is not one of this application's
 *   live ones (a ciphertext captured from another application); the three are one answer,
 *   so nobody learns which step failed (no padding oracle). Then every PIN rule of spec
 *   section 5 against the stored application and, in the child flow, its parent
 *   (domain/rules/pin.ts): 400 { message, errors } with the rule's message. 409 when the
 *   personal step (or, in the child flow, the parent step) is not saved yet (the rules need
 *   the birthdays, phones and address) or a PIN is already set: one PIN per application, final.
 *
 * What is stored: the ORIGINAL ciphertext and its keyId (application_pins), never the PIN or
 * a hash of it (4 digits: any hash is reversed by trying 10,000 values). The key pair lives
 * in DATA_DIR/keys, outside the database, so a database copy alone reveals no PIN. Hand-off:
 * the bank's core system receives ciphertext + keyId and decrypts with the same private key
 * (PIN_KEY_FILE can be a key the bank holds). Re-encrypting for the bank under a key of its
 * own was the alternative; it would make this server hold the plain PIN once more, for no
 * gain while the bank can have our key. The ciphertext also carries the binding, which the
 * core system ignores.
 *
 * The PIN is never logged (the request log has no bodies, logging.ts) and never answered.
 */

/** How long a binding may wait for its PIN: the page is open, the applicant types. */
export const BINDING_VALIDITY_MS = 60 * 60 * 1000;
/** Attempts per session token and hour: generous for typing mistakes, no use for guessing. */
export const PIN_ATTEMPTS_PER_HOUR = 30;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface PinBody {
  code: string;
  keyId?: string;
}


/** Whether the application has its PIN (the eKYC start and the completion require it). */
export async function hasPin(db: Database, applicationId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: applicationPins.applicationId })
    .from(applicationPins)
    .where(eq(applicationPins.applicationId, applicationId))
    .limit(1);
  return row !== undefined;
}

/**
 * What the PIN rules compare against: the application as stored and, for a child application,
 * its parent, through the page's own builder (pinContextOf). Undefined while a step the rules
 * need is missing: the personal step, and in the child flow the parent step.
 */
async function storedPinContext(db: Database, forms: FormCatalogue, applicationId: string, applicationType: 'GENERAL' | 'CHILD'): Promise<PinContext | undefined> {
  return pinContextFrom(await storedAnswersOf(db, forms, applicationId), applicationType);
}

function pinContextFrom(stored: StoredAnswers | undefined, applicationType: 'GENERAL' | 'CHILD'): PinContext | undefined {
  const application = stored?.application;
  if (!application?.birthday || !application.mobilePhoneNumber) return undefined;
  // The PIN rules read texts only: what the forms stored under these names (pinContextOf keeps its own fields).
  const fields = application as PinApplicationFields;
  if (applicationType === 'GENERAL') return pinContextOf(fields, null);
  // The parent's record: the forms stored as applicationParent (parent, parent-workplace).
  const parent = (stored?.entities.applicationParent ?? null) as PinPerson | null;
  if (!parent?.birthday || !parent.mobilePhoneNumber) return undefined;
  return pinContextOf(fields, parent);
}

/** The decrypted JSON, or null unless it is { pin: string, binding: string }. */
function parsePayload(plaintext: Buffer): { pin: string; binding: string } | null {
  try {
    const value: unknown = JSON.parse(plaintext.toString('utf8'));
    if (typeof value !== 'object' || value === null) return null;
    const { pin, binding } = value as Record<string, unknown>;
    return typeof pin === 'string' && typeof binding === 'string' && binding.length <= 100 ? { pin, binding } : null;
  } catch {
    return null;
  } finally {
    plaintext.fill(0);
  }
}

const conflict = (reply: FastifyReply, message: string) => reply.code(409).send({ message });

type PinOutcome = { kind: 'stored' } | { kind: 'taken' } | { kind: 'incomplete' } | { kind: 'refused'; message: string };
const refused = (reply: FastifyReply) => reply.code(400).send({ message: messages.badRequest });

const pinRoutes: FastifyPluginAsync = async (app) => {
  app.get('/public-key', { onRequest: requireApplication }, async (request, reply) => {
    const { id, pinSet } = applicationOf(request);
    if (pinSet) return conflict(reply, httpMessages.pinAlreadySet);
    const now = app.now();
    const binding = randomBytes(32).toString('base64url');
    // Expired bindings of this application go; the live ones stay (another open tab). One
    // statement, so it is all or nothing without a transaction around it.
    const expired = app.db
      .$with('expired')
      .as(app.db.delete(pinBindings).where(and(eq(pinBindings.applicationId, id), lte(pinBindings.expiresAt, now))).returning({ hash: pinBindings.bindingHash }));
    await app.db.with(expired).insert(pinBindings).values({
      bindingHash: sha256(binding),
      applicationId: id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + BINDING_VALIDITY_MS),
    });
    const { keyId, keyCode } = (await app.pinKeys()).current;
    return { keyId, keyCode, binding };
  });

  app.post<{ Body: PinBody }>(
    '/pin',
    {
      onRequest: requireApplicationWithAnswers,
      preValidation: validateBody('pin.schema.json'),
      config: {
        rateLimit: {
          max: PIN_ATTEMPTS_PER_HOUR,
          timeWindow: 60 * 60 * 1000,
          // Per session (the token's hash, never the token), not per IP: phones share carrier IPs.
          keyGenerator: (request) => `pin:${sha256(request.headers.authorization ?? request.ip)}`,
        },
      },
    },
    async (request, reply) => {
      const { id, applicationType, pinSet } = applicationOf(request);
      // As the session check found it; the insert below decides a race.
      if (pinSet) return conflict(reply, httpMessages.pinAlreadySet);
      // Told before anything is decrypted; judged again under the lock below.
      if (!pinContextFrom(storedAnswersOfRequest(request), applicationType)) return conflict(reply, httpMessages.stepsIncomplete);

      const keys = await app.pinKeys();
      const keyId = request.body.keyId ?? keys.current.keyId;
      const plaintext = await keys.decrypt(keyId, Buffer.from(request.body.code, 'base64'));
      const payload = plaintext ? parsePayload(plaintext) : null;
      if (!payload) return refused(reply);

      const now = app.now();
      const [binding] = await app.db
        .select({ hash: pinBindings.bindingHash })
        .from(pinBindings)
        .where(and(eq(pinBindings.bindingHash, sha256(payload.binding)), eq(pinBindings.applicationId, id), gt(pinBindings.expiresAt, now)))
        .limit(1);
      if (!binding) {
        // A send that raced another one of this application finds the bindings spent: 409.
        return (await hasPin(app.db, id)) ? conflict(reply, httpMessages.pinAlreadySet) : refused(reply);
      }

      const outcome = await app.db.transaction(async (tx): Promise<PinOutcome> => {
        // Under the row's lock a form post either came first (and its answers are read here)
        // or waits and then finds the PIN set: the PIN is judged by the answers that stand.
        await tx.select({ id: applications.id }).from(applications).where(eq(applications.id, id)).for('update');
        const standing = await storedPinContext(tx, app.forms, id, applicationType);
        if (!standing) return { kind: 'incomplete' };
        const message = firstPinError(payload.pin, payload.pin, standing);
        if (message !== null) return { kind: 'refused', message };
        // The primary key decides a race of two sends: the second inserts nothing, and so
        // spends no binding and touches no row (one statement: the bindings and the row go
        // only through the PIN it inserted).
        const inserted = tx
          .$with('inserted')
          .as(
            tx
              .insert(applicationPins)
              .values({ applicationId: id, keyId, ciphertext: request.body.code, createdAt: now })
              .onConflictDoNothing()
              .returning({ id: applicationPins.applicationId }),
          );
        const spent = tx.$with('spent').as(
          tx
            .delete(pinBindings)
            .where(inArray(pinBindings.applicationId, tx.select({ id: inserted.id }).from(inserted)))
            .returning({ hash: pinBindings.bindingHash }),
        );
        // pin_set: a form step's store, waiting for this row, re-reads it and stores nothing.
        const set = await tx
          .with(inserted, spent)
          .update(applications)
          .set({ updatedAt: now, pinSet: true })
          .where(inArray(applications.id, tx.select({ id: inserted.id }).from(inserted)))
          .returning({ id: applications.id });
        return set.length === 0 ? { kind: 'taken' } : { kind: 'stored' };
      });
      if (outcome.kind === 'incomplete') return conflict(reply, httpMessages.stepsIncomplete);
      if (outcome.kind === 'refused') return reply.code(400).send({ message: outcome.message, errors: [{ field: 'pin', message: outcome.message }] });
      if (outcome.kind === 'taken') return conflict(reply, httpMessages.pinAlreadySet);
      return {};
    },
  );
};

export default pinRoutes;
