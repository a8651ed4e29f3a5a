import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import formbody from '@fastify/formbody';
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Database } from '../db/index.js';
import { oncePerDatabase } from '../db/prepared.js';
import { timestamptz } from '../db/values.js';
import { ekycSimulatorSessions, simulatorOutcomes, type SimulatorOutcome } from '../db/schema.js';
import {
  parseCallbackBody,
  signedCallback,
  verifySignature,
  type EkycCallbackEvent,
  type EkycProvider,
  type EkycProviderStatus,
  type EkycSession,
  type EkycSessionRequest,
} from './adapter.js';
import { receiveCallback, type CallbackDependencies } from './callbacks.js';
import { simulatorOutcomeLabels } from './simulator-labels.js';
import { VERIFICATION_METHODS } from '../../domain/identity-check-methods.js';

/**
 * The identity-check provider simulator shipped with the product (EKYC_PROVIDER=simulator,
 * the default outside production). It stands in for the external eKYC service so the whole
 * application can be run, demonstrated and tested end to end without a contract with one:
 *
 * - createSession makes a session and answers the URL of a page of this server,
 *   /ekyc-simulator/sessions/<sessionId>: plain HTML in Japanese, no script (the CSP allows
 *   none inline), explaining that it stands in for the provider, with a form whose `outcome`
 *   is chosen by the tester.
 * - POST <that URL>/decision (form-urlencoded, so any HTTP client can drive it) records the
 *   outcome, sends the signed callback a real provider would send through the same code as
 *   POST /api/ekyc/callback (receiveCallback -> verifyCallback), and answers 303 to the
 *   session's return URL (/ekyc-callback, or /child/ekyc-callback for a child application).
 *
 * Outcomes: approve -> 4; supplement -> 4 with supplement (the bank asks for a current-address
 * document); reject -> 9; error -> 8 (the provider failed); pending -> 2 (still checking:
 * the page's polling runs out and shows /ekyc-error; the session can still be decided later).
 *
 * Its sessions live in the database (ekyc_simulator_sessions), standing for the provider's
 * own records, so they survive a restart and work with several servers on one PostgreSQL.
 * Anyone who opens a session's page can decide it: never use it where checks must be real.
 */

export const SIMULATOR_PREFIX = '/ekyc-simulator/sessions';


function stateOf(outcome: SimulatorOutcome | null): EkycProviderStatus {
  switch (outcome) {
    case null:
      return { state: 'created', supplement: false };
    case 'pending':
      return { state: 'processing', supplement: false };
    case 'approve':
      return { state: 'approved', supplement: false };
    case 'supplement':
      return { state: 'approved', supplement: true };
    case 'reject':
      return { state: 'rejected', supplement: false };
    case 'error':
      return { state: 'failed', supplement: false };
  }
}

/**
 * The simulator's statements, prepared (db/prepared.ts): every application's check runs each once,
 * as the provider's own records would be written and read.
 */
const statementsOf = oncePerDatabase((db) => {
  const sessionId = sql.placeholder('sessionId');
  return {
    insert: db
      .insert(ekycSimulatorSessions)
      .values({
        sessionId,
        applicationType: sql`${sql.placeholder('applicationType')}`,
        returnUrl: sql`${sql.placeholder('returnUrl')}`,
        outcome: null,
        createdAt: timestamptz(sql.placeholder('now')),
      })
      .prepare('ekyc_simulator_session_insert'),
    read: db
      .select()
      .from(ekycSimulatorSessions)
      .where(eq(ekycSimulatorSessions.sessionId, sessionId))
      .limit(1)
      .prepare('ekyc_simulator_session'),
    // Only a session still undecided or 'pending' takes an outcome.
    decide: db
      .update(ekycSimulatorSessions)
      .set({ outcome: sql`${sql.placeholder('outcome')}`, decidedAt: timestamptz(sql.placeholder('now')) })
      .where(
        and(
          eq(ekycSimulatorSessions.sessionId, sessionId),
          or(isNull(ekycSimulatorSessions.outcome), eq(ekycSimulatorSessions.outcome, 'pending')),
        ),
      )
      .returning({ returnUrl: ekycSimulatorSessions.returnUrl })
      .prepare('ekyc_simulator_decide'),
  };
});

export class EkycSimulator implements EkycProvider {
  readonly name = 'simulator' as const;
  /** It stands in for today's provider: a face photo and a photo identity document's images (ホ). */
  readonly method = VERIFICATION_METHODS.IMAGE_SELFIE_PHOTO_ID;

  constructor(
    private readonly db: Database,
    private readonly secret: string,
    private readonly now: () => Date,
  ) {}

  async createSession(request: EkycSessionRequest): Promise<EkycSession> {
    const sessionId = `sim_${randomBytes(16).toString('base64url')}`;
    await statementsOf(this.db).insert.execute({
      sessionId,
      applicationType: request.applicationType,
      returnUrl: request.returnUrl,
      now: this.now().toISOString(),
    });
    return { sessionId, url: `${SIMULATOR_PREFIX}/${sessionId}` };
  }

  async session(sessionId: string) {
    const [row] = await statementsOf(this.db).read.execute({ sessionId });
    return row;
  }

  async readStatus(sessionId: string): Promise<EkycProviderStatus> {
    const row = await this.session(sessionId);
    if (!row) throw new Error('the simulator has no such session');
    return stateOf(row.outcome);
  }

  verifyCallback(headers: IncomingHttpHeaders, rawBody: Buffer): EkycCallbackEvent {
    verifySignature(this.secret, headers, rawBody, this.now());
    return parseCallbackBody(rawBody);
  }

  /**
   * Records the tester's outcome (a session still undecided or 'pending' only) and returns
   * the signed callback the provider sends, with the session's return URL; undefined when the
   * session is unknown or already decided.
   */
  async decide(sessionId: string, outcome: SimulatorOutcome): Promise<{ headers: Record<string, string>; rawBody: Buffer; returnUrl: string } | undefined> {
    const now = this.now();
    const [decided] = await statementsOf(this.db).decide.execute({ sessionId, outcome, now: now.toISOString() });
    if (!decided) return undefined;
    return { ...signedCallback(this.secret, { sessionId, ...stateOf(outcome) }, now), returnUrl: decided.returnUrl };
  }
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>
body{font-family:sans-serif;margin:0;padding:16px;line-height:1.7;color:#222;background:#f4f4f4}
main{max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:16px 20px}
h1{font-size:20px;margin:0 0 8px}.note{background:#fff4d6;border:1px solid #e0b84a;padding:8px 12px;border-radius:6px}
fieldset{border:1px solid #ccc;border-radius:6px;margin:16px 0;padding:8px 12px}label{display:block;padding:8px 0}
button{display:block;width:100%;padding:14px;font-size:16px;border:0;border-radius:6px;background:#0b5394;color:#fff}
a.button{display:block;text-align:center;padding:14px;border-radius:6px;background:#0b5394;color:#fff;text-decoration:none}
dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px}dt{font-weight:bold}dd{margin:0;word-break:break-all}
</style></head>
<body><main>${body}</main></body></html>`;
}

const applicationTypeLabels = { GENERAL: '口座開設（ご本人さま）', CHILD: 'お子さまの口座開設（親権者さまの本人確認）' } as const;

function sessionPage(sessionId: string, applicationType: keyof typeof applicationTypeLabels, outcome: SimulatorOutcome | null, returnUrl: string): string {
  const info = `<dl><dt>お申込み</dt><dd>${applicationTypeLabels[applicationType]}</dd><dt>セッション</dt><dd>${escapeHtml(sessionId)}</dd></dl>`;
  const head = `<h1>本人確認サービス（シミュレーター）</h1>
<p class="note">このページは、外部の本人確認（eKYC）サービスの代わりに動くシミュレーターです。本人確認書類の撮影や顔写真の照合は行いません。開発・検証・デモンストレーション用で、結果は下の選択肢から選びます。</p>
${info}`;
  if (outcome !== null && outcome !== 'pending') {
    return page(
      '本人確認サービス（シミュレーター）',
      `${head}<p>このセッションの結果は送信済みです：${escapeHtml(simulatorOutcomeLabels[outcome])}</p>
<p><a class="button" href="${escapeHtml(returnUrl)}">お申込み画面へ戻る</a></p>`,
    );
  }
  const choices = simulatorOutcomes
    .map(
      (value, index) =>
        `<label><input type="radio" name="outcome" value="${value}"${index === 0 ? ' checked' : ''}> ${escapeHtml(simulatorOutcomeLabels[value])}</label>`,
    )
    .join('\n');
  return page(
    '本人確認サービス（シミュレーター）',
    `${head}
<form method="post" action="${SIMULATOR_PREFIX}/${escapeHtml(sessionId)}/decision">
<fieldset><legend>本人確認の結果</legend>
${choices}
</fieldset>
<button type="submit">結果を送信してお申込み画面へ戻る</button>
</form>`,
  );
}

export function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}

function messagePage(reply: FastifyReply, status: number, text: string, returnUrl?: string) {
  const back = returnUrl ? `<p><a class="button" href="${escapeHtml(returnUrl)}">お申込み画面へ戻る</a></p>` : '';
  return sendPage(reply, status, page('本人確認サービス（シミュレーター）', `<h1>本人確認サービス（シミュレーター）</h1><p>${escapeHtml(text)}</p>${back}`));
}

export interface SimulatorRoutesOptions {
  simulator: EkycSimulator;
  callbacks: CallbackDependencies;
}

const sessionIdPattern = /^sim_[A-Za-z0-9_-]{22}$/;
const SESSION_NOT_FOUND = 'この本人確認のセッションは見つかりません。お申込み画面からやり直してください。';

/** The simulator's pages (see the file comment). */
export const simulatorRoutes: FastifyPluginAsync<SimulatorRoutesOptions> = async (app, { simulator, callbacks }) => {
  // Form posts; registered in this scope only, the API stays JSON.
  await app.register(formbody, { bodyLimit: 1024 });

  app.get<{ Params: { sessionId: string } }>(`${SIMULATOR_PREFIX}/:sessionId`, async (request, reply) => {
    const { sessionId } = request.params;
    const session = sessionIdPattern.test(sessionId) ? await simulator.session(sessionId) : undefined;
    if (!session) return messagePage(reply, 404, SESSION_NOT_FOUND);
    return sendPage(reply, 200, sessionPage(session.sessionId, session.applicationType, session.outcome, session.returnUrl));
  });

  app.post<{ Params: { sessionId: string }; Body: { outcome?: unknown } | undefined }>(
    `${SIMULATOR_PREFIX}/:sessionId/decision`,
    async (request, reply) => {
      const { sessionId } = request.params;
      if (!sessionIdPattern.test(sessionId)) return messagePage(reply, 404, SESSION_NOT_FOUND);
      const outcome = simulatorOutcomes.find((value) => value === request.body?.outcome);
      // Decided in one statement; only a refusal reads the session, to say why (unknown first, as ever).
      const callback = outcome ? await simulator.decide(sessionId, outcome) : undefined;
      if (!callback) {
        const session = await simulator.session(sessionId);
        if (!session) return messagePage(reply, 404, SESSION_NOT_FOUND);
        if (!outcome) return messagePage(reply, 400, '本人確認の結果を選択してください。');
        return messagePage(reply, 409, 'このセッションの結果は送信済みです。', session.returnUrl);
      }
      // The provider's callback, through the same verification and recording as the HTTP one.
      await receiveCallback(callbacks, callback.headers, callback.rawBody);
      return reply.code(303).header('location', callback.returnUrl).header('cache-control', 'no-store').send();
    },
  );
};
