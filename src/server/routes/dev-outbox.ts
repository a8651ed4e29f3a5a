import type { FastifyPluginAsync } from 'fastify';
import type { OutboxEntry } from '../mail/index.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(entries: OutboxEntry[], listing: boolean): string {
  const items = entries
    .map(
      (entry) => `<article>
<h2>${escapeHtml(entry.subject)}</h2>
<dl><dt>From</dt><dd>${escapeHtml(entry.from.name)} &lt;${escapeHtml(entry.from.address)}&gt;</dd>
<dt>To</dt><dd>${escapeHtml(entry.to)}</dd><dt>Sent</dt><dd>${escapeHtml(entry.sentAt)}</dd></dl>
<pre>${escapeHtml(entry.text)}</pre></article>`,
    )
    .join('\n');
  const empty = listing ? '<p>送信済みのメールはありません。</p>' : '<p>SMTP_URL が設定されているため、メールはSMTPサーバーへ送信されています。</p>';
  return `<!doctype html><html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Outbox</title><style>body{font-family:sans-serif;margin:16px;line-height:1.6}article{border-top:1px solid #ccc;padding:8px 0}pre{white-space:pre-wrap}dt{font-weight:bold}</style></head>
<body><h1>Outbox（開発用）</h1>${items || empty}</body></html>`;
}

/**
 * Development only (never registered in production): the mails the outbox kept, newest first,
 * as a page for people and as JSON for the browser tests, which read the codes from it.
 * ?to=<address> narrows the list to one recipient.
 */
const devOutbox: FastifyPluginAsync = async (app) => {
  const list = async (to: string | undefined): Promise<OutboxEntry[]> => {
    const entries = (await app.mail.list?.()) ?? [];
    return to ? entries.filter((entry) => entry.to.toLowerCase() === to.toLowerCase()) : entries;
  };

  app.get<{ Querystring: { to?: string } }>('/dev/outbox.json', async (request) => list(request.query.to));

  app.get<{ Querystring: { to?: string } }>('/dev/outbox', async (request, reply) =>
    reply.type('text/html; charset=utf-8').send(page(await list(request.query.to), app.mail.list !== undefined)),
  );
};

export default devOutbox;
