import type { FastifyReply } from 'fastify';
import { messages } from '../../domain/messages.js';
import type { FieldError } from '../../domain/rules/index.js';
import type { ValidationFailure } from '../validation.js';

/**
 * What the step routes (general steps and the child's parent step) share: the 400 answer with
 * its errors in form order, and the small rewrites that do on the server what the page's blur
 * handlers do, so a body is checked and stored as the applicant meant it.
 */
export type Body = Record<string, unknown>;

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


/** Applies `convert` to a string property; an optional text left empty becomes null. */
export function rewrite(body: Body, field: string, convert: (value: string) => string, emptyToNull: boolean): void {
  const value = body[field];
  if (typeof value !== 'string') return;
  const converted = convert(value);
  body[field] = emptyToNull && converted === '' ? null : converted;
}
