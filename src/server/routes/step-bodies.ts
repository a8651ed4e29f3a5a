import type { FastifyReply } from 'fastify';
import { messages } from '../../domain/messages.js';
import type { FieldError } from '../../domain/rules/index.js';
import type { ValidationFailure } from '../validation.js';

/**
 * What the step routes with their own code (the workplace and the child's parent step) share:
 * the 400 answer with its errors in form order. (Their bodies are normalised as their forms
 * say: normalizeAnswers and each field's x-normalize.)
 */

/** Errors sorted by the form's field order; message = the first one (what the page focuses). */
export function failure(errors: FieldError[], order: readonly string[]): ValidationFailure {
  const rank = (field: string) => {
    const index = order.indexOf(field);
    return index === -1 ? order.length : index;
  };
  // Array.prototype.sort is stable: errors of one field keep the order they were found in.
  const sorted = [...errors].sort((a, b) => rank(a.field) - rank(b.field));
  return { message: sorted[0]?.message ?? messages.badRequest, errors: sorted };
}

export function badRequest(reply: FastifyReply, errors: FieldError[], order: readonly string[]) {
  return reply.code(400).send(failure(errors, order));
}
