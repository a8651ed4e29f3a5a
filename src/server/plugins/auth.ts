import { and, eq, gt, gte, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import { messages } from '../../domain/messages.js';
import { SESSION_ACTIVITY_AGE_HEADER } from '../../domain/session-activity.js';
import { hashAuthToken } from '../crypto.js';
import type { Database } from '../db/index.js';
import { oncePerDatabase } from '../db/prepared.js';
import { qualified } from '../db/qualified.js';
import { applicationPins, applications, authTokens } from '../db/schema.js';
import { completionStateFields, type CompletionState } from '../completion/facts.js';
import { ekycStateFields, type EkycState } from '../ekyc/sessions.js';
import { storedAnswerFields, storedAnswersFrom, type StoredAnswers } from '../forms/answers.js';
import type { AuthenticatedApplication } from '../types.js';

/** A session ends after SESSION_IDLE_MS without a request (config.session), and in any case 12 hours after the e-mail verification. */
export const SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;

/** 32 bytes in base64url without padding. */
// The scheme name is case-insensitive (RFC 9110 section 11.1).
const bearer = /^bearer ([A-Za-z0-9_-]{43})$/i;

/** How long a session this process checked may read reference data without a statement (ADR 0042). */
export const LOOKUP_TRUST_MS = 30_000;
/** Sessions remembered at most: a few per applicant of a busy process; the oldest are checked again. */
const REMEMBERED_SESSIONS = 20_000;

const auth: FastifyPluginAsync = async (app) => {
  app.decorateRequest('application', null);
  app.decorate('recentSessions', new LRUCache<string, number>({ max: REMEMBERED_SESSIONS }));
};

export default fp(auth, { name: 'auth', fastify: '5.x', dependencies: ['database'] });

const pinSetOf = sql<boolean>`exists (select 1 from ${applicationPins} where ${qualified(applicationPins.applicationId)} = ${qualified(applications.id)})`;

/** What a route reads besides the session, in the session check's statement. */
type Extra = 'answers' | 'ekyc' | 'completion' | null;

const checked = {
  id: applications.id,
  bankCode: applications.bankCode,
  applicationType: applications.applicationType,
  flowVersion: applications.flowVersion,
  pinSet: pinSetOf,
};

/**
 * The session's row, checked and touched in one statement: a token of another bank, expired or
 * idle too long matches no row and is not touched. Its values are placeholders (times as ISO
 * strings, as drizzle's timestamp column would send them).
 */
function sessionUpdate(db: Database) {
  const now = sql.placeholder('now');
  return db
    .update(authTokens)
    .set({ lastSeenAt: sql`${now}` })
    .from(applications)
    .where(
      and(
        eq(authTokens.tokenHash, sql.placeholder('tokenHash')),
        eq(applications.id, authTokens.applicationId),
        eq(applications.bankCode, sql.placeholder('bankCode')),
        gt(authTokens.expiresAt, now),
        gte(authTokens.lastSeenAt, sql.placeholder('idleSince')),
      ),
    );
}

/**
 * The four forms of the session check, prepared (db/prepared.ts): it runs on every
 * authenticated request, about 20 times per application, and building its SQL each time was
 * the largest share of the server's drizzle CPU under load.
 */
const sessionChecksOf = oncePerDatabase((db) => ({
  plain: sessionUpdate(db).returning(checked).prepare('session_check'),
  answers: sessionUpdate(db).returning({ ...storedAnswerFields, ...checked }).prepare('session_check_answers'),
  ekyc: sessionUpdate(db).returning({ ...checked, ...ekycStateFields }).prepare('session_check_ekyc'),
  completion: sessionUpdate(db).returning({ ...checked, ...completionStateFields }).prepare('session_check_completion'),
}));

/**
 * The session check (sessionUpdate). It also returns whether the PIN is set,
 * which every step-editing POST, the PIN's and the eKYC's routes ask first, and on request
 * what the route reads anyway: with 'answers' what the application has stored
 * (forms/answers.ts), with 'ekyc' its identity check (ekyc/sessions.ts), with 'completion'
 * what its completion is judged by (completion/facts.ts). One statement
 * instead of two, read in the same snapshot as the session.
 */
async function checkSession(request: FastifyRequest, reply: FastifyReply, extra: Extra) {
  const { db, now: clock, config } = request.server;
  const match = bearer.exec(request.headers.authorization ?? '');
  const unauthorized = () => reply.code(401).send({ message: messages.unauthorized });
  if (!match?.[1]) return unauthorized();
  const bankCode = request.bank?.code;
  if (!bankCode) return unauthorized();
  const now = clock();
  const values = {
    now: now.toISOString(),
    tokenHash: hashAuthToken(match[1]),
    bankCode,
    idleSince: new Date(now.getTime() - config.session.idleMs).toISOString(),
  };
  /** The session's row, if any; this process remembers the outcome for the lookups (requireSignedIn). */
  const found = <Row>([row]: Row[]): Row | undefined => {
    if (row) rememberSession(request.server, bankCode, values.tokenHash, now);
    else request.server.recentSessions.delete(sessionKey(bankCode, values.tokenHash));
    return row;
  };
  const checks = sessionChecksOf(db);
  if (extra === 'answers') {
    const row = found(await checks.answers.execute(values));
    if (!row) return unauthorized();
    // id, flowVersion and pinSet are the session's, not answers the browser receives.
    const { id, flowVersion, pinSet, ...stored } = row;
    request.application = { id, bankCode: stored.bankCode, applicationType: stored.applicationType, flowVersion, pinSet, stored: storedAnswersFrom(request.server.forms, stored) };
    return;
  }
  if (extra === 'ekyc') {
    const row = found(await checks.ekyc.execute(values));
    if (!row) return unauthorized();
    const { latestEkyc, ekycAttempts, applicationNumber, ...application } = row;
    request.application = { ...application, ekyc: { latest: latestEkyc, attempts: ekycAttempts, applicationNumber } };
    return;
  }
  if (extra === 'completion') {
    const row = found(await checks.completion.execute(values));
    if (!row) return unauthorized();
    const { applicationNumber, applicationCompletedAt, mailAddress, completionFacts, ...application } = row;
    request.application = { ...application, completion: { applicationNumber, applicationCompletedAt, mailAddress, completionFacts } };
    return;
  }
  const row = found(await checks.plain.execute(values));
  if (!row) return unauthorized();
  request.application = row;
}

const sessionKey = (bankCode: string, tokenHash: string) => `${bankCode}:${tokenHash}`;

/**
 * This process saw the session live, its activity recorded at `at` (a session check, or verify
 * creating it): the lookups trust it for a while without a statement (requireSignedIn).
 */
export function rememberSession(app: FastifyInstance, bankCode: string, tokenHash: string, at: Date): void {
  app.recentSessions.set(sessionKey(bankCode, tokenHash), at.getTime());
}

/**
 * preHandler of the lookups of reference data (addresses, furigana, occupations, branches,
 * workplace and invitation codes): a session this process checked within LOOKUP_TRUST_MS (and
 * a quarter of the idle time) passes without a statement, and the answer tells the page how
 * long ago its activity was recorded; any other goes through the whole check. What a lookup
 * answers is the same for every applicant of the bank, so a session ended a few seconds ago
 * elsewhere learns nothing it should not (ADR 0042). Sets no request.application: a lookup
 * reads the host's bank (request.bank), which the session check matched.
 */
export async function requireSignedIn(request: FastifyRequest, reply: FastifyReply) {
  const match = bearer.exec(request.headers.authorization ?? '');
  const bankCode = request.bank?.code;
  if (match?.[1] && bankCode) {
    const { recentSessions, now, config } = request.server;
    const recordedAt = recentSessions.get(sessionKey(bankCode, hashAuthToken(match[1])));
    const age = recordedAt === undefined ? -1 : now().getTime() - recordedAt;
    if (age >= 0 && age < Math.min(LOOKUP_TRUST_MS, config.session.idleMs / 4)) {
      reply.header(SESSION_ACTIVITY_AGE_HEADER, String(age));
      return;
    }
  }
  return checkSession(request, reply, null);
}

/**
 * preHandler of the authenticated API routes. Answers 401 (the browser then shows the session
 * error page) when the token is missing, unknown, idle too long, too old, or was issued by
 * another bank than the host's (or the host has no bank); otherwise records the activity and
 * sets request.application.
 */
export async function requireApplication(request: FastifyRequest, reply: FastifyReply) {
  return checkSession(request, reply, null);
}

/** requireApplication for a route that reads what the application has stored: request.application.stored. */
export async function requireApplicationWithAnswers(request: FastifyRequest, reply: FastifyReply) {
  return checkSession(request, reply, 'answers');
}

/** requireApplication for a route that reads the application's identity check: request.application.ekyc. */
export async function requireApplicationWithEkyc(request: FastifyRequest, reply: FastifyReply) {
  return checkSession(request, reply, 'ekyc');
}

/** requireApplication for the completion: request.application.completion. */
export async function requireApplicationWithCompletion(request: FastifyRequest, reply: FastifyReply) {
  return checkSession(request, reply, 'completion');
}

/** What completion is judged by, as the session check found it (a route guarded by requireApplicationWithCompletion). */
export function completionStateOfRequest(request: FastifyRequest): CompletionState {
  const completion = applicationOf(request).completion;
  if (!completion) throw new Error(`${request.routeOptions.url ?? 'route'} lacks the requireApplicationWithCompletion guard`);
  return completion;
}

/** The identity check as the session check found it (a route guarded by requireApplicationWithEkyc). */
export function ekycStateOfRequest(request: FastifyRequest): EkycState {
  const ekyc = applicationOf(request).ekyc;
  if (!ekyc) throw new Error(`${request.routeOptions.url ?? 'route'} lacks the requireApplicationWithEkyc guard`);
  return ekyc;
}

/** What the application had stored when its session was checked (a route guarded by requireApplicationWithAnswers). */
export function storedAnswersOfRequest(request: FastifyRequest): StoredAnswers {
  const stored = applicationOf(request).stored;
  if (!stored) throw new Error(`${request.routeOptions.url ?? 'route'} lacks the requireApplicationWithAnswers guard`);
  return stored;
}

/** The bank of a route guarded by requireSignedIn: the host's, which the session's matched. */
export function signedInBankCodeOf(request: FastifyRequest): string {
  const code = request.bank?.code;
  if (!code) throw new Error(`${request.routeOptions.url ?? 'route'} lacks the requireSignedIn preHandler`);
  return code;
}

/** The applicant of a route guarded by requireApplication (a missing guard is a bug: 500). */
export function applicationOf(request: FastifyRequest): AuthenticatedApplication {
  if (!request.application) throw new Error(`${request.routeOptions.url ?? 'route'} lacks the requireApplication preHandler`);
  return request.application;
}
