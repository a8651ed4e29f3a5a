import { createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { messages } from '../../domain/messages.js';
import { firstPinError, pinContextOf, type PinApplicationFields, type PinContext, type PinPerson } from '../../domain/rules/index.js';
import type { StoredAnswers } from '../forms/answers.js';
import { httpMessages } from '../http-messages.js';
import { applicationOf, requireApplication, requireApplicationWithAnswers, storedAnswersOfRequest } from '../plugins/auth.js';
import { pinStateOf, storePin } from '../pin/store.js';
import { validateBody } from '../validation.js';
import { isLiveBinding, issueBinding } from '../pin/binding.js';

/**
 * The cash-card PIN (spec sections 4, 5 and 7).
 *
 * GET /api/public-key -> { keyId, keyCode, binding }
 *   keyCode: the current RSA public key, SPKI DER in base64 (pin/keys.ts); keyId names it.
 *   binding: a value signed for this application (pin/binding.ts), valid for
 *   BINDING_VALIDITY_MS; nothing is stored. 409 when the PIN is already set.
 *
 * POST /api/pin { code, keyId? } -> 200 {}
 *   code: base64 of RSA-OAEP (SHA-256) over the UTF-8 JSON {"pin":"1234","binding":"<binding>"}
 *   under the key keyId (default: the current key). Web Crypto:
 *     encrypt({ name: 'RSA-OAEP' }, await importKey('spki', der, { name: 'RSA-OAEP', hash: 'SHA-256' }, …), json)
 *   400 { message: messages.badRequest } when it does not decrypt (PKCS#1 v1.5 ciphertexts
 *   included), is not such JSON, or carries a binding that is not this application's live
 *   one (a ciphertext captured from another application); the three are one answer,
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

/** Attempts per session token and hour: generous for typing mistakes, no use for guessing. */
export const PIN_ATTEMPTS_PER_HOUR = 30;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface PinBody {
  code: string;
  keyId?: string;
}

/**
 * What the PIN rules compare against: the application as stored and, for a child application,
 * its parent, through the page's own builder (pinContextOf). Undefined while a step the rules
 * need is missing: the personal step, and in the child flow the parent step.
 */
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

/** What a PIN is judged by: the answers, and whether a PIN is set. */
type PinState = { pinSet: boolean; stored: StoredAnswers };
/**
 * Judgements per request: each one after the second follows a change another request made to
 * the application at that very moment, so a few are plenty.
 */
const ROUNDS = 4;
const refused = (reply: FastifyReply) => reply.code(400).send({ message: messages.badRequest });

const pinRoutes: FastifyPluginAsync = async (app) => {
  app.get('/public-key', { onRequest: requireApplication }, async (request, reply) => {
    const { id, pinSet } = applicationOf(request);
    if (pinSet) return conflict(reply, httpMessages.pinAlreadySet);
    const { keyId, keyCode } = (await app.pinKeys()).current;
    return { keyId, keyCode, binding: issueBinding(app.hasher, id, app.now()) };
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
      // As the session check found it; the statement that stores decides a race.
      if (pinSet) return conflict(reply, httpMessages.pinAlreadySet);
      const asChecked = storedAnswersOfRequest(request);
      // Told before anything is decrypted; judged again by the answers that stand when stored.
      if (!pinContextFrom(asChecked, applicationType)) return conflict(reply, httpMessages.stepsIncomplete);

      const keys = await app.pinKeys();
      const keyId = request.body.keyId ?? keys.current.keyId;
      const plaintext = await keys.decrypt(keyId, Buffer.from(request.body.code, 'base64'));
      const payload = plaintext ? parsePayload(plaintext) : null;
      // A binding that is not this application's (a ciphertext captured from another): the same
      // 400 as a ciphertext that does not decrypt, before any rule is told.
      const now = app.now();
      if (!payload || !isLiveBinding(app.hasher, payload.binding, id, now)) return refused(reply);

      const write = { applicationId: id, keyId, ciphertext: request.body.code, now };
      // The answers of the session check; read anew only when the store found them moved.
      let state: PinState = { pinSet: false, stored: asChecked };
      for (let round = 0; round < ROUNDS; round += 1) {
        if (state.pinSet) return conflict(reply, httpMessages.pinAlreadySet);
        const standing = pinContextFrom(state.stored, applicationType);
        if (!standing) return conflict(reply, httpMessages.stepsIncomplete);
        const message = firstPinError(payload.pin, payload.pin, standing);
        if (message !== null) return reply.code(400).send({ message, errors: [{ field: 'pin', message }] });
        const outcome = await storePin(app.db, { ...write, revision: state.stored.revision });
        if (outcome.stored) return {};
        // Nothing stored: another PIN, or the row moved meanwhile (a step stored): read what stands now.
        state = outcome.pinSet ? { pinSet: true, stored: state.stored } : await pinStateOf(app.db, app.forms, id);
      }
      throw new Error(`the application changed under each of ${ROUNDS} PIN attempts`);
    },
  );
};

export default pinRoutes;
