import { messages } from '../../domain/messages.js';
import { httpMessages } from '../http-messages.js';

/**
 * What every error a request can raise becomes: the status and Japanese message of the answer,
 * and how it may be logged. A 4xx is the client's doing (a malformed body, a value the
 * database refuses); a 500 is our own fault. Library errors are recognised here, in one
 * place, so routes need not catch them one by one.
 */

/** An error the client caused, raised by our code with its answer (e.g. a broken multipart body). */
export class ClientError extends Error {
  constructor(
    readonly statusCode: number,
    readonly answer: string,
    options?: { cause?: unknown },
  ) {
    super(`client error ${statusCode}`, options);
    this.name = 'ClientError';
  }
}

/** The fields of a PostgreSQL error (node-postgres and PGlite alike) that name no values. */
export interface DatabaseFault {
  sqlState: string;
  constraint?: string;
  table?: string;
  column?: string;
  routine?: string;
}

const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * The PostgreSQL error in an error's cause chain (drizzle wraps it in a DrizzleQueryError
 * whose message holds the query and its parameters, i.e. the applicant's data).
 */
export function databaseFaultOf(error: unknown): DatabaseFault | null {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    const fields = current as Error & Partial<Record<'code' | 'severity' | 'constraint' | 'table' | 'column' | 'routine', unknown>>;
    if (typeof fields.code === 'string' && SQLSTATE.test(fields.code) && typeof fields.severity === 'string') {
      const fault: DatabaseFault = { sqlState: fields.code };
      for (const key of ['constraint', 'table', 'column', 'routine'] as const) {
        const value = fields[key];
        if (typeof value === 'string') fault[key] = value;
      }
      return fault;
    }
    current = current.cause;
  }
  return null;
}

/** Whether the error came out of a database query (also when drizzle wrapped it without a cause). */
export function isDatabaseError(error: unknown): boolean {
  return databaseFaultOf(error) !== null || (error instanceof Error && error.name === 'DrizzleQueryError');
}

export interface ErrorAnswer {
  statusCode: number;
  message: string;
}

function messageFor(statusCode: number): string {
  if (statusCode === 429) return messages.tooManyRequests;
  if (statusCode === 404) return httpMessages.notFound;
  if (statusCode === 413) return httpMessages.payloadTooLarge;
  if (statusCode === 415) return httpMessages.unsupportedMediaType;
  if (statusCode === 408) return httpMessages.requestTimeout;
  return messages.badRequest;
}

/**
 * Database errors the client's values can cause once they pass our schemas (the schemas
 * should refuse them first: each is logged as a gap to close): data exceptions (class 22:
 * out of range, too long, bad encoding), a reference to a row that does not exist (23503) or
 * a check (23514) → 400; two requests creating the same row (23505) → 409.
 */
function databaseAnswer(fault: DatabaseFault): ErrorAnswer | null {
  if (fault.sqlState.startsWith('22') || fault.sqlState === '23503' || fault.sqlState === '23514') {
    return { statusCode: 400, message: messages.badRequest };
  }
  if (fault.sqlState === '23505') return { statusCode: 409, message: httpMessages.conflict };
  return null;
}

/** The answer to an error; 500 for anything not recognised as the client's doing. */
export function answerFor(error: unknown): ErrorAnswer {
  if (error instanceof ClientError) return { statusCode: error.statusCode, message: error.answer };
  const fault = databaseFaultOf(error);
  if (fault) return databaseAnswer(fault) ?? { statusCode: 500, message: httpMessages.internalError };
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return { statusCode: status, message: messageFor(status) };
  return { statusCode: 500, message: httpMessages.internalError };
}

