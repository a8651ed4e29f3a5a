import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import * as client from 'openid-client';
import type { Database } from '../db/index.js';
import { applicationForms, ekycOidcSessions, ekycSessions } from '../db/schema.js';
import { EKYC_COMPARED_FIELDS, type EkycRefusal } from '../../domain/ekyc.js';
import { VERIFICATION_METHODS } from '../../domain/identity-check-methods.js';
import { EkycCallbackError, type EkycCallbackEvent, type EkycProvider, type EkycProviderStatus, type EkycSession, type EkycSessionRequest } from './adapter.js';
import { applyProviderStatus } from './callbacks.js';
import { allComparedFields, compareClaims, type ComparedField, type IdentityClaims } from './claims.js';

/**
 * The OpenID Connect identity check (the JPKI method, docs/adr/0034, 0035 and 0037): JPKI through
 * the Digital Agency's authentication app, or the stand-in provider (oidc-standin.ts).
 *
 * - createSession: a PKCE verifier (S256), `state` and `nonce` made here and kept in
 *   ekyc_oidc_sessions (never in the browser); the browser goes to the provider's
 *   authorization endpoint with their derived values.
 * - GET /api/ekyc/oidc/callback (the redirect_uri): the session is found by `state`, spent
 *   once, and the code exchanged by openid-client, which checks state, the ID token (issuer,
 *   audience, signature, nonce) and sends the verifier. The claims (userinfo) are compared
 *   with what the applicant entered: a match approves (method JPKI_SIGNATURE, the claims as
 *   the record's evidence), a mismatch rejects (9) and is told to the applicant (refusal: which
 *   items differ, no values), any protocol failure fails (8). The browser
 *   then goes to the flow's return page (/ekyc-callback…) whatever the outcome, which polls as
 *   ever and leads on by the status; when nothing can be trusted (unknown state) it goes to
 *   /ekyc-error.
 */

export const OIDC_CALLBACK_PATH = '/api/ekyc/oidc/callback';
/** The claims asked for, as the Digital Agency's app provides them (one scope each). */
export const OIDC_SCOPES = 'openid name address birthdate gender';

export interface OidcSettings {
  issuer: () => URL;
  clientId: string;
  clientSecret: string | null;
}

type Outcome = NonNullable<(typeof ekycOidcSessions.$inferSelect)['outcome']>;

/** The stored reason of a mismatch ('claims differ: name, address'): field names only, no values. */
const MISMATCH_REASON = 'claims differ: ';

function mismatchReason(fields: readonly ComparedField[]): string {
  return `${MISMATCH_REASON}${fields.join(', ')}`;
}

/** The applicant's view of a stored reason: the mismatch and its fields, or null (any other reason). */
function refusalOfReason(reason: string | null): EkycRefusal | null {
  if (!reason?.startsWith(MISMATCH_REASON)) return null;
  const named = reason.slice(MISMATCH_REASON.length).split(', ');
  return { reason: 'mismatch', fields: EKYC_COMPARED_FIELDS.filter((field) => named.includes(field)) };
}

export class EkycOidc implements EkycProvider {
  readonly name = 'oidc' as const;
  readonly method = VERIFICATION_METHODS.JPKI_SIGNATURE;
  #configuration: Promise<client.Configuration> | undefined;

  constructor(
    private readonly db: Database,
    private readonly settings: OidcSettings,
    private readonly now: () => Date,
  ) {}

  /** The provider's metadata, read once (discovery); retried after a failure. */
  configuration(): Promise<client.Configuration> {
    if (!this.#configuration) {
      const issuer = this.settings.issuer();
      const auth = this.settings.clientSecret === null ? client.None() : client.ClientSecretBasic(this.settings.clientSecret);
      const insecure = issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : undefined;
      this.#configuration = client.discovery(issuer, this.settings.clientId, undefined, auth, insecure);
      this.#configuration.catch(() => (this.#configuration = undefined));
    }
    return this.#configuration;
  }

  async createSession(request: EkycSessionRequest): Promise<EkycSession> {
    const configuration = await this.configuration();
    const sessionId = `oidc_${randomBytes(16).toString('base64url')}`;
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const redirectUri = new URL(OIDC_CALLBACK_PATH, request.returnUrl).href;
    await this.db.insert(ekycOidcSessions).values({
      sessionId,
      state,
      nonce,
      codeVerifier,
      redirectUri,
      returnUrl: request.returnUrl,
      createdAt: this.now(),
    });
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: OIDC_SCOPES,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      // Every check reads the card again: a session the provider still has from an earlier
      // attempt (another person's card, say) must not answer for this one.
      prompt: 'login',
    });
    return { sessionId, url: url.href };
  }

  async readStatus(sessionId: string): Promise<EkycProviderStatus> {
    const [row] = await this.db.select({ outcome: ekycOidcSessions.outcome }).from(ekycOidcSessions).where(eq(ekycOidcSessions.sessionId, sessionId));
    if (!row) throw new Error('no such OpenID Connect session');
    // A decided check was recorded by the callback (with its evidence); until then nothing to add.
    return { state: row.outcome === null ? 'created' : row.outcome, supplement: false };
  }

  async refusal(sessionId: string): Promise<EkycRefusal | null> {
    const [row] = await this.db.select({ outcome: ekycOidcSessions.outcome, reason: ekycOidcSessions.reason }).from(ekycOidcSessions).where(eq(ekycOidcSessions.sessionId, sessionId));
    return row?.outcome === 'rejected' ? refusalOfReason(row.reason) : null;
  }

  verifyCallback(): EkycCallbackEvent {
    // Nothing is POSTed by an OpenID provider; its answer comes through the browser (finish).
    throw new EkycCallbackError(401, 'the OpenID Connect provider sends no callbacks');
  }

  /**
   * Finishes the check of the authorization response at `currentUrl` and answers where the
   * browser goes: the session's return page once it is decided (whatever the outcome: its poll
   * leads on), '/ekyc-error' when the response belongs to no open session (the navigation guard
   * turns that arrival into the error page: nothing of an unknown response is trusted).
   */
  async finish(currentUrl: URL): Promise<string> {
    const state = currentUrl.searchParams.get('state') ?? '';
    // Spent here, before the exchange: a replayed response finds nothing open.
    const [session] = await this.db
      .update(ekycOidcSessions)
      .set({ usedAt: this.now() })
      .where(and(eq(ekycOidcSessions.state, state), isNull(ekycOidcSessions.usedAt)))
      .returning();
    if (!session) return '/ekyc-error';
    const decide = async (outcome: Outcome, reason: string, evidence?: Record<string, unknown>) => {
      // The decision (with its evidence) first: readStatus reports the outcome only once it is recorded.
      await applyProviderStatus(this.db, this, session.sessionId, { state: outcome, supplement: false, evidence }, this.now());
      await this.db.update(ekycOidcSessions).set({ outcome, reason }).where(eq(ekycOidcSessions.sessionId, session.sessionId));
      // The return page in every case, as after the simulator: it polls the status and the flow
      // goes on to completion, or to its eKYC error page for a failed or rejected check. (The
      // error page itself, entered by a redirect, would be refused by the navigation guard.)
      return session.returnUrl;
    };
    let claims: IdentityClaims;
    try {
      const configuration = await this.configuration();
      const callbackUrl = new URL(session.redirectUri);
      callbackUrl.search = currentUrl.search;
      const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: session.codeVerifier,
        expectedState: session.state,
        expectedNonce: session.nonce,
        idTokenExpected: true,
      });
      const subject = tokens.claims()?.sub ?? '';
      claims = (await client.fetchUserInfo(configuration, tokens.access_token, subject)) as IdentityClaims;
    } catch (error) {
      const code = error instanceof Error ? ((error as { code?: string; error?: string }).error ?? (error as { code?: string }).code ?? error.name) : 'unknown';
      return decide('failed', `protocol: ${code}`.slice(0, 200));
    }
    const entered = await enteredAnswers(this.db, session.sessionId);
    const mismatches = compareClaims(claims, entered.answers, entered.compared);
    if (mismatches.length > 0) return decide('rejected', mismatchReason(mismatches));
    return decide('approved', 'claims match', { issuer: this.settings.issuer().href, claims });
  }
}

/**
 * What the person checked in OIDC session `sessionId` entered, and which of it is compared: the
 * applicant (GENERAL: name, birthday, address) or the parent (CHILD: name and birthday; the
 * parent's address is not asked in the child flow, so the claims' address is only recorded).
 */
export async function enteredAnswers(db: Database, sessionId: string): Promise<{ answers: Record<string, unknown>; compared: readonly ComparedField[] }> {
  const [session] = await db
    .select({ applicationId: ekycSessions.applicationId, applicationType: ekycSessions.applicationType })
    .from(ekycSessions)
    .where(and(eq(ekycSessions.provider, 'oidc'), eq(ekycSessions.providerSessionId, sessionId)));
  if (!session) return { answers: {}, compared: allComparedFields };
  const general = session.applicationType === 'GENERAL';
  const [row] = await db
    .select({ answers: applicationForms.answers })
    .from(applicationForms)
    .where(and(eq(applicationForms.applicationId, session.applicationId), eq(applicationForms.form, general ? 'personal' : 'parent')));
  const answers = (row?.answers ?? {}) as Record<string, unknown>;
  return { answers, compared: general ? allComparedFields : ['name', 'birthday'] };
}

/** The redirect_uri route: every outcome is a 303 to a page of the flow. */
export const oidcCallbackRoutes: FastifyPluginAsync<{ oidc: EkycOidc }> = async (app, { oidc }) => {
  app.get(OIDC_CALLBACK_PATH, async (request, reply) => {
    const location = await oidc.finish(new URL(request.url, 'http://callback.invalid'));
    if (location === '/ekyc-error') request.log.warn('OpenID Connect response for no open session refused');
    return reply.code(303).header('location', location).header('cache-control', 'no-store').send();
  });
};
