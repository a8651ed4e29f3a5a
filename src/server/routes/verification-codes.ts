import { lt } from 'drizzle-orm';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { messages } from '../../domain/messages.js';
import { REVISION_HEADER } from '../../domain/revision.js';
import { createdAnswers } from '../forms/answers.js';
import { applicationsAnswerOf } from './applications.js';
import { hashAuthToken, newAuthToken, newVerificationCode } from '../crypto.js';
import { applicationTypes, verificationCodes, type ApplicationType } from '../db/schema.js';
import { verificationMail } from '../mail/index.js';
import { rememberSession, SESSION_LIFETIME_MS } from '../plugins/auth.js';
import { requireBank } from '../plugins/banks.js';
import { isFlowVersion } from '../flows/version.js';
import { validateBody, validator } from '../validation.js';
import { normalizeIP } from '@fastify/rate-limit';
import type { DatabaseRateLimits, Limit } from '../boundary/rate-limits.js';
import type { ServerConfig } from '../config.js';
import type { Database } from '../db/index.js';
import { normalizeVerificationCode } from '../../domain/rules/verification-code.js';
import { claimedMailRow } from '../mail/queue-rows.js';
import { countWrongTry, createApplication, pendingCode, storeCode } from '../verification/codes.js';

/** A code is good for 10 minutes (stated in the mail) and MAX_WRONG_ATTEMPTS wrong tries (verification/codes.ts). */
export const CODE_VALIDITY_MINUTES = 10;

const ONE_HOUR_MS = 60 * 60 * 1000;

// Query parameters of the landing page, kept only when well-formed (spec section 9).
const CHANNEL_MAX_LENGTH = 20;
const deviceIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface RegisterBody {
  bankCode: string;
  mailAddress: string;
  applicationType: ApplicationType;
}

export interface VerifyBody extends RegisterBody {
  verificationCode: string;
  channel?: unknown;
  deviceId?: unknown;
  /** The flow version the page runs (the applicant started on it): kept if the server still keeps it. */
  flowVersion?: unknown;
}

// The bank and type every code request names; messages fall back to messages.badRequest.
const bankAndType = {
  type: 'object',
  required: ['bankCode', 'applicationType'],
  properties: {
    bankCode: { type: 'string', pattern: '^[0-9]{4}$' },
    applicationType: { type: 'string', enum: applicationTypes },
  },
};

// allOf keeps the order of the errors: the address (or the code) is reported first.
const registerSchema = { allOf: [{ $ref: 'mail-address.schema.json' }, bankAndType] };
const verifySchema = {
  allOf: [{ $ref: 'verification-code.schema.json' }, { $ref: 'mail-address.schema.json' }, bankAndType],
};

/** The body names the bank of the host it was sent to (the page took it from there). */
async function requireSameBank(request: FastifyRequest<{ Body: RegisterBody }>, reply: FastifyReply) {
  if (request.body.bankCode !== request.bank?.code) return reply.code(400).send({ message: messages.badRequest });
}

export function verificationFailed(reply: FastifyReply) {
  return reply.code(400).send({ message: messages.verificationFailed });
}

/** A spent or expired code is kept this long, then deleted by the hourly retention job (plugins/retention.ts). */
const SPENT_CODE_KEPT_MS = 24 * 60 * 60 * 1000;

/** Deletes the codes that expired more than a day ago (used or not); returns how many. */
export async function purgeSpentCodes(db: Database, now: Date): Promise<number> {
  const deleted = await db.delete(verificationCodes).where(lt(verificationCodes.expiresAt, new Date(now.getTime() - SPENT_CODE_KEPT_MS))).returning({ id: verificationCodes.id });
  return deleted.length;
}

/**
 * The id of the live code the body's code matches, or null (a wrong code counts as a try).
 * Not claimed yet: the caller claims it in the statement that uses it (liveCode again there).
 */
export async function matchingCode(app: FastifyInstance, body: VerifyBody, now: Date): Promise<string | null> {
  const pending = await pendingCode(app.db, { bankCode: body.bankCode, applicationType: body.applicationType, mailHash: app.hasher.mail(body.mailAddress), now });
  if (!pending) return null;
  if (app.hasher.equal(app.hasher.code(pending.id, body.verificationCode), pending.codeHash)) return pending.id;
  await countWrongTry(app.db, pending.id);
  return null;
}

/** The limits and checks of every route that takes a code: verify, and resume (routes/resume.ts). */
export function verifyRouteOptions(config: ServerConfig) {
  return {
    // Per client IP, every try counts: each code dies after 5 wrong tries, but one client
    // could otherwise walk through many addresses. Verify and resume share the one count.
    config: { rateLimit: { max: config.rateLimit.verifyIpPerHour, timeWindow: ONE_HOUR_MS, groupId: 'code tries' } },
    preValidation: validateBody(verifySchema, (body) => {
      if (typeof body.verificationCode === 'string') {
        body.verificationCode = normalizeVerificationCode(body.verificationCode);
      }
    }),
    preHandler: [requireBank, requireSameBank],
  };
}

/**
 * E-mail verification (spec section 7): register sends a 6-digit code to the address, verify
 * exchanges the right code for the authentication token of a new application. Only HMACs of
 * the address and the code are stored; the answer to register is the same whether or not the
 * address is known, so it tells nothing about other applicants.
 */
const verificationCodeRoutes: FastifyPluginAsync<{ rateLimits: DatabaseRateLimits }> = async (app, { rateLimits }) => {
  const { config } = app;
  /** The requests whose limits were counted, so the ones refused before that are counted as their answer goes out. */
  const counted = new WeakSet<FastifyRequest>();

  /** Per client IP (as @fastify/rate-limit keys it): every request counts, valid or not. */
  const ipLimit = (request: FastifyRequest): Limit => ({
    name: `${request.routeOptions.method} ${request.routeOptions.url}`,
    key: normalizeIP(request.ip),
    timeWindow: ONE_HOUR_MS,
    max: config.rateLimit.ipPerHour,
  });

  /**
   * Register's two limits in one statement (ADR 0041), before the body's checks answer, in the
   * order the answers always came: over the IP limit, 429 whatever was sent (and the address is
   * not counted); then the body's 400; then, for a valid request to this host's bank, the
   * address's limit (keyed by its HMAC, from any IP), 429. The plugin's headers as its route
   * limiter sent them.
   */
  async function registerRateLimits(request: FastifyRequest<{ Body: RegisterBody }>, reply: FastifyReply) {
    counted.add(request);
    const body = request.body;
    // The validator validateBody runs next (compiled once, at the first request, as there).
    const addressCounts = validator(registerSchema, config.schemasDir)(body) && body.bankCode === request.bank?.code;
    const ip = ipLimit(request);
    const address: Limit | null = addressCounts
      ? { name: 'mail', key: app.hasher.mail(body.mailAddress), timeWindow: ONE_HOUR_MS, max: config.rateLimit.addressPerHour }
      : null;
    const hits = await rateLimits.hitTogether(ip, address);
    const reset = Math.ceil(hits.first.ttl / 1000);
    reply.header('x-ratelimit-limit', ip.max).header('x-ratelimit-remaining', Math.max(0, ip.max - hits.first.current)).header('x-ratelimit-reset', reset);
    if (hits.first.current > ip.max) {
      reply.header('retry-after', reset);
      throw Object.assign(new Error(messages.tooManyRequests), { statusCode: 429 });
    }
    if (address && hits.then && hits.then.current > address.max) {
      return reply.code(429).header('retry-after', Math.ceil(hits.then.ttl / 1000)).send({ message: messages.tooManyRequests });
    }
  }

  /**
   * A request answered before its limits were counted (a body that could not be read, a query
   * given twice): counted per IP as its answer goes out, before it is sent.
   */
  async function countRefused(request: FastifyRequest, _reply: FastifyReply, payload: unknown) {
    if (!counted.has(request)) await rateLimits.hitTogether(ipLimit(request), null);
    return payload;
  }

  app.post<{ Body: RegisterBody }>(
    '/verification-codes/register',
    {
      preValidation: [registerRateLimits, validateBody(registerSchema)],
      preHandler: [requireBank, requireSameBank],
      onSend: countRefused,
    },
    async (request) => {
      const bank = request.bank;
      if (!bank) throw new Error('requireBank let a request without a bank through');
      const { mailAddress, applicationType } = request.body;
      const now = app.now();
      const mailHash = app.hasher.mail(mailAddress);
      const code = newVerificationCode();
      const id = randomUUID();
      const expiresAt = new Date(now.getTime() + CODE_VALIDITY_MINUTES * 60_000);
      // Queued with the code: the answer does not wait for the SMTP server, and a code never
      // exists without its mail. Not sent before the code expires: not sent at all.
      // Claimed by this process in the same statement, and sent by its worker once committed
      // (here, once the statement has returned): no claim statement (ADR 0041).
      const mail = claimedMailRow('verification', verificationMail(bank, mailAddress, code, CODE_VALIDITY_MINUTES), now, expiresAt, config.mailQueue.lockMs);
      await storeCode(app.db, { id, bankCode: bank.code, applicationType, mailHash, codeHash: app.hasher.code(id, code), now, expiresAt }, mail);
      app.mailQueue.handOff(mail.claimed);
      return {};
    },
  );

  app.post<{ Body: VerifyBody }>(
    '/verification-codes/verify',
    verifyRouteOptions(config),
    async (request, reply) => {
      const { bankCode, mailAddress, applicationType, channel, deviceId } = request.body;
      const now = app.now();
      const pendingId = await matchingCode(app, request.body, now);
      if (!pendingId) return verificationFailed(reply);

      const token = newAuthToken();
      // The application runs this flow version until it is finished (flows/versions.ts).
      const { version: flowVersion } = await app.flowVersions.forNewApplication(applicationType, isFlowVersion(request.body.flowVersion) ? request.body.flowVersion : undefined);
      const tokenHash = hashAuthToken(token);
      const stored = await createApplication(app.db, {
        codeId: pendingId,
        bankCode,
        applicationType,
        mailAddress,
        channel: typeof channel === 'string' && channel !== '' && channel.length <= CHANNEL_MAX_LENGTH ? channel : null,
        deviceId: typeof deviceId === 'string' && deviceIdPattern.test(deviceId) ? deviceId : null,
        flowVersion,
        tokenHash,
        now,
        expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
      });
      const [created] = stored;
      if (!created) return verificationFailed(reply);
      // Its activity recorded now: the first page's lookups need not check it again (ADR 0042).
      rememberSession(app, bankCode, tokenHash, now);
      // The new application as GET /api/applications would answer it: the first page opens
      // with it instead of asking (ADR 0042), and its revision goes with that page's step.
      const revision = Number(created.revision);
      reply.header(REVISION_HEADER, String(revision));
      return { authenticationToken: token, flowVersion, applications: applicationsAnswerOf(createdAnswers(app.forms, { bankCode, applicationType, mailAddress }, revision)) };
    },
  );
};

export default verificationCodeRoutes;
