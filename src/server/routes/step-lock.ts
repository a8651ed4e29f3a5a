import type { FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '../../domain/messages.js';
import { applicationOf, requireApplicationWithAnswers } from '../plugins/auth.js';

/**
 * Once the PIN is stored, what the applicant entered is final: the PIN screen warns that it
 * cannot be corrected afterwards, the bank's core system takes the application as confirmed
 * with it, and the PIN rules were checked against exactly these birthdays, phones and
 * addresses. So every POST that edits a step answers 409 { message } and writes nothing.
 *
 * An onRequest hook after requireApplication, before the body is even parsed: a locked
 * application is told so whatever it sends (a 400 for its body would only mislead).
 */
export async function refuseOncePinIsSet(request: FastifyRequest, reply: FastifyReply) {
  // As the session check found it: the transaction that stores a step judges it again.
  if (applicationOf(request).pinSet) return reply.code(409).send({ message: messages.stepsLockedAfterPin });
}

/** The onRequest hooks of every step-editing POST: the session with the stored answers (the step judges by them and answers with them), then the lock. */
export const stepEditHooks = [requireApplicationWithAnswers, refuseOncePinIsSet];
