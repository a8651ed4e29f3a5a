import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import formbody from '@fastify/formbody';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
// Types only: the provider itself (oidc-provider and Koa) is loaded on the first request (oidc-standin.ts).
import type Provider from 'oidc-provider';
import type { Database } from '../db/index.js';
import { ekycOidcSessions } from '../db/schema.js';
import { identityLabels } from './oidc-standin-labels.js';
import { forgetCardHolder } from './oidc-standin-store.js';
import { escapeHtml, page, sendPage } from './simulator.js';

/**
 * The stand-in OpenID provider's routes under /oidc-provider (ADR 0035): its interaction page,
 * where the tester picks who is "on the card", and everything else handed to oidc-provider.
 * They are mounted at start; the provider behind them is made on the first request, so a
 * server whose applicants never choose JPKI never loads oidc-provider.
 */
export const STANDIN_PREFIX = '/oidc-provider';

const STANDIN_TITLE = 'マイナンバーカードによる本人確認（スタンドイン）';
const INTERACTION_GONE = 'この認証の手続きは見つからないか、有効期限が切れています。お申込み画面から本人確認をやり直してください。';

type Identity = keyof typeof identityLabels;

function interactionPage(uid: string): string {
  const choices = (Object.keys(identityLabels) as Identity[])
    .map((value, index) => `<label><input type="radio" name="identity" value="${value}"${index === 0 ? ' checked' : ''}> ${escapeHtml(identityLabels[value])}</label>`)
    .join('\n');
  return page(
    STANDIN_TITLE,
    `<h1>${STANDIN_TITLE}</h1>
<p class="note">このページは、デジタル庁の認証アプリ（公的個人認証）の代わりに動く開発・検証用のOpenIDプロバイダです。マイナンバーカードの読み取りは行いません。カードに記録されている方を下から選んでください。</p>
<form method="post" action="${STANDIN_PREFIX}/interaction/${escapeHtml(uid)}">
<fieldset><legend>マイナンバーカードの持ち主</legend>
${choices}
</fieldset>
<button type="submit">この内容で認証してお申込み画面へ戻る</button>
</form>`,
  );
}


/** The interaction of this request (its cookie), or undefined when it is unknown or over. */
async function interactionOf(provider: Provider, request: IncomingMessage, response: ServerResponse) {
  try {
    return await provider.interactionDetails(request, response);
  } catch {
    return undefined;
  }
}

const gonePage = () => page(STANDIN_TITLE, `<h1>${STANDIN_TITLE}</h1><p>${INTERACTION_GONE}</p>`);

function gone(reply: FastifyReply) {
  return sendPage(reply, 400, gonePage());
}

/**
 * The page's form posts to the stand-in, which then redirects the browser to the application's
 * redirect_uri on the bank's host, another origin in development (127.0.0.1 against
 * 0177.localhost). Browsers apply form-action to the redirects after a submission too, so the
 * page's policy names that one origin beside 'self' (oidc-provider checked it is registered).
 */
function allowFormRedirectTo(reply: FastifyReply, redirectUri: unknown): void {
  const policy = reply.raw.getHeader('content-security-policy');
  if (typeof policy !== 'string' || typeof redirectUri !== 'string' || !URL.canParse(redirectUri)) return;
  reply.header('content-security-policy', policy.replace("form-action 'self'", `form-action 'self' ${new URL(redirectUri).origin}`));
}

/** Mounts the stand-in: its interaction page, and everything else to oidc-provider itself (`standin` makes it once). */
export const standinRoutes: FastifyPluginAsync<{ standin: () => Promise<Provider>; db: Database }> = async (app, { standin, db }) => {
  await app.register(async (scope) => {
    await scope.register(formbody, { bodyLimit: 1024 });
    scope.get<{ Params: { uid: string } }>(`${STANDIN_PREFIX}/interaction/:uid`, async (request, reply) => {
      const details = await interactionOf(await standin(), request.raw, reply.raw);
      if (!details) return gone(reply);
      allowFormRedirectTo(reply, details.params.redirect_uri);
      return sendPage(reply, 200, interactionPage(details.uid));
    });
    scope.post<{ Params: { uid: string }; Body: { identity?: unknown } | undefined }>(`${STANDIN_PREFIX}/interaction/:uid`, async (request, reply) => {
      const provider = await standin();
      const details = await interactionOf(provider, request.raw, reply.raw);
      if (!details) return gone(reply);
      const identity = (Object.keys(identityLabels) as Identity[]).find((value) => value === request.body?.identity);
      if (!identity) return sendPage(reply, 400, interactionPage(details.uid));
      const state = String(details.params.state ?? '');
      const [session] = await db.select({ sessionId: ekycOidcSessions.sessionId }).from(ekycOidcSessions).where(eq(ekycOidcSessions.state, state));
      const accountId = identity === 'self' && session ? `self.${session.sessionId}` : `other.${randomBytes(8).toString('hex')}`;
      // A new card holder: the provider forgets the one it remembers from an earlier check in this browser.
      if (details.session?.cookie && details.session.accountId !== accountId) await forgetCardHolder(db, details.session.cookie, details.uid);
      const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      reply.hijack();
      try {
        await provider.interactionFinished(request.raw, reply.raw, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
      } catch (error) {
        // The interaction ended meanwhile (expired, finished in another tab): say so, rather than leave the answer open.
        request.log.warn({ err: error }, 'OpenID stand-in: the interaction could not be finished');
        if (!reply.raw.headersSent) reply.raw.writeHead(400, { 'content-type': 'text/html; charset=utf-8' }).end(gonePage());
      }
    });
  });

  // oidc-provider reads the body itself: this scope leaves the stream untouched.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const forward = async (raw: IncomingMessage & { originalUrl?: string }, response: ServerResponse) => {
      raw.originalUrl = raw.url;
      raw.url = (raw.url ?? '').slice(STANDIN_PREFIX.length) || '/';
      return (await standin()).callback()(raw, response);
    };
    scope.all(`${STANDIN_PREFIX}/*`, async (request, reply) => {
      reply.hijack();
      await forward(request.raw, reply.raw);
    });
  });
};
