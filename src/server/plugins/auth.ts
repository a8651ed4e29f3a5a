import { and, eq, gt, gte, lte, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { SelectedFields } from 'drizzle-orm/pg-core';
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

/**
 * How stale the recorded activity of a session may be: a request records it anew only when it
 * is this old or older (ADR 0046), and a lookup trusts a session this process saw recorded
 * within it (ADR 0042). A quarter of the idle time at most, so a session idle for
 * SESSION_IDLE_MS ends at most this much earlier than the last request's time would have it;
 * the page is told the recorded time (SESSION_ACTIVITY_AGE_HEADER) and warns from it.
 */
export function activityRecordedEveryMs(idleMs: number): number {
  return Math.min(LOOKUP_TRUST_MS, idleMs / 4);
}

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

/** A token of this bank that has neither expired nor been idle too long, joined to its application. */
function liveSession() {
  const now = sql.placeholder('now');
  return and(
    eq(authTokens.tokenHash, sql.placeholder('tokenHash')),
    eq(applications.id, authTokens.applicationId),
    eq(applications.bankCode, sql.placeholder('bankCode')),
    gt(authTokens.expiresAt, now),
    gte(authTokens.lastSeenAt, sql.placeholder('idleSince')),
  );
}

/**
 * The session's row, checked, and its activity recorded when the recorded one is as old as
 * recordBy (activityRecordedEveryMs ago) or older: most requests of an applicant then write
 * nothing, and PostgreSQL commits them without a WAL flush (ADR 0046). A token of another bank, expired or
 * idle too long matches no row and is not touched. The select reads the snapshot before the
 * update: its lastSeenAt is the activity recorded before this request. Values are placeholders
 * (times as ISO strings, as drizzle's timestamp column would send them).
 */
function sessionCheck<Fields extends SelectedFields>(db: Database, fields: Fields) {
  const recorded = db.$with('recorded').as(
    db
      .update(authTokens)
      .set({ lastSeenAt: sql`${sql.placeholder('now')}` })
      .from(applications)
      .where(and(liveSession(), lte(authTokens.lastSeenAt, sql.placeholder('recordBy'))))
      .returning({ tokenHash: authTokens.tokenHash }),
  );
  return db
    .with(recorded)
    .select({ ...fields, lastSeenAt: authTokens.lastSeenAt })
    .from(authTokens)
    .innerJoin(applications, eq(applications.id, authTokens.applicationId))
    .where(liveSession());
}

/**
 * The four forms of the session check, prepared (db/prepared.ts): it runs on every
 * authenticated request, about 20 times per application, and building its SQL each time was
 * the largest share of the server's drizzle CPU under load.
 */
const sessionChecksOf = oncePerDatabase((db) => ({
  plain: sessionCheck(db, checked).prepare('session_check'),
  answers: sessionCheck(db, { ...storedAnswerFields, ...checked }).prepare('session_check_answers'),
  ekyc: sessionCheck(db, { ...checked, ...ekycStateFields }).prepare('session_check_ekyc'),
  completion: sessionCheck(db, { ...checked, ...completionStateFields }).prepare('session_check_completion'),
}));

/**
 * The session check (sessionCheck). It also returns whether the PIN is set,
 * which every step-editing POST, the PIN's and the eKYC's routes ask first, and on request
 * what the route reads anyway: with 'answers' what the application has stored
 * (forms/answers.ts), with 'ekyc' its identity check (ekyc/sessions.ts), with 'completion'
 * what its completion is judged by (completion/facts.ts). One statement
 * instead of two, read in the same snapshot as the session.
 */
async function checkSession(request: FastifyRequest, reply: FastifyReply, extra: Extra, recordNow = false) {
  const { db, now: clock, config } = request.server;
  const match = bearer.exec(request.headers.authorization ?? '');
  const unauthorized = () => reply.code(401).send({ message: messages.unauthorized });
  if (!match?.[1]) return unauthorized();
  const bankCode = request.bank?.code;
  if (!bankCode) return unauthorized();
  const now = clock();
  const recordBy = now.getTime() - (recordNow ? 0 : activityRecordedEveryMs(config.session.idleMs));
  const values = {
    now: now.toISOString(),
    tokenHash: hashAuthToken(match[1]),
    bankCode,
    idleSince: new Date(now.getTime() - config.session.idleMs).toISOString(),
    recordBy: new Date(recordBy).toISOString(),
  };
  /**
   * The session's row without its lastSeenAt, if any. This process remembers when the activity
   * was recorded, for the lookups (requireSignedIn), and the page is told when that was.
   */
  const found = <Row extends { lastSeenAt: Date }>([row]: Row[]): Omit<Row, 'lastSeenAt'> | undefined => {
    if (!row) {
      request.server.recentSessions.delete(sessionKey(bankCode, values.tokenHash));
      return undefined;
    }
    const { lastSeenAt, ...rest } = row;
    const recordedAt = lastSeenAt.getTime() <= recordBy ? now.getTime() : lastSeenAt.getTime();
    rememberSession(request.server, bankCode, values.tokenHash, new Date(recordedAt));
    if (recordedAt < now.getTime()) reply.header(SESSION_ACTIVITY_AGE_HEADER, String(now.getTime() - recordedAt));
    return rest;
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
 * workplace and invitation codes): a session whose activity this process saw recorded within
 * activityRecordedEveryMs passes without a statement, and the answer tells the page how long
 * ago its activity was recorded; any other goes through the whole check. What a lookup
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
    if (age >= 0 && age < activityRecordedEveryMs(config.session.idleMs)) {
      reply.header(SESSION_ACTIVITY_AGE_HEADER, String(age));
      return;
    }
  }
  return checkSession(request, reply, null);
}

/**
 * preHandler of the authenticated API routes. Answers 401 (the browser then shows the session
 * error page) when the token is missing, unknown, idle too long, too old, or was issued by
 * another bank than the host's (or the host has no bank); otherwise records the activity (when
 * the recorded one is activityRecordedEveryMs old or older) and sets request.application.
 */
export async function requireApplication(request: FastifyRequest, reply: FastifyReply) {
  return checkSession(request, reply, null);
}

/**
 * requireApplication that records the activity whatever the recorded one's age: the applicant
 * asked for the session to go on (「延長する」), so it lasts SESSION_IDLE_MS from now.
 */
export async function requireApplicationRecordingActivity(request: FastifyRequest, reply: FastifyReply) {
  return checkSession(request, reply, null, true);
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
