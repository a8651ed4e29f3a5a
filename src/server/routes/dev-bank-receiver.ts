import type { FastifyPluginAsync } from 'fastify';
import { DEV_RECEIVER_PATH } from '../plugins/delivery.js';
import { IDEMPOTENCY_HEADER, signatureProblem } from '../delivery/signature.js';

/** What the development receiver shows of one arrival: never the document's personal data. */
interface Arrival {
  receivedAt: string;
  bankCode: string;
  idempotencyKey: string;
  applicationNumber: string | null;
  signature: 'valid' | string;
  /** Whether this key had arrived before: the bank answers it as done and opens nothing. */
  duplicate: boolean;
  documents: number;
}

/** The development receiver keeps the last arrivals of this process, no more. */
const KEPT = 100;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function parsed(body: Buffer): { applicationNumber?: unknown; documents?: unknown } {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return typeof value === 'object' && value !== null ? value : {};
  } catch {
    return {};
  }
}

/**
 * Development only (never registered in production): the bank's side of the hand-off when a
 * bank has no DELIVERY_ENDPOINT. It checks each delivery as a bank would (our signature with
 * our public key, the time, the idempotency key), answers 401 to a bad signature, and shows
 * what arrived at /dev/bank-receiver (JSON at /dev/bank-receiver.json). Kept in this process's
 * memory: a development aid, not state the product relies on.
 */
const devBankReceiver: FastifyPluginAsync = async (app) => {
  const arrivals: Arrival[] = [];
  const seen = new Set<string>();

  await app.register(async (scope) => {
    // The raw bytes, as signed: not the JSON parser's object.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 * 1024 }, (_request, body, done) => done(null, body));
    scope.post<{ Params: { bankCode: string }; Body: Buffer }>(`${DEV_RECEIVER_PATH}/:bankCode`, async (request, reply) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const problem = signatureProblem(app.deliveryKey.publicKey, request.headers, body, app.now());
      const key = String(request.headers[IDEMPOTENCY_HEADER] ?? '');
      const document = parsed(body);
      const duplicate = problem === null && seen.has(key);
      if (problem === null) seen.add(key);
      arrivals.unshift({
        receivedAt: app.now().toISOString(),
        bankCode: request.params.bankCode,
        idempotencyKey: key,
        applicationNumber: typeof document.applicationNumber === 'string' ? document.applicationNumber : null,
        signature: problem ?? 'valid',
        duplicate,
        documents: Array.isArray(document.documents) ? document.documents.length : 0,
      });
      arrivals.length = Math.min(arrivals.length, KEPT);
      if (problem) return reply.code(401).send({ message: '署名を確認できないため、受け付けませんでした。', reason: problem });
      return { received: key, duplicate };
    });
  });

  app.get(`${DEV_RECEIVER_PATH}.json`, async () => arrivals);

  app.get(DEV_RECEIVER_PATH, async (_request, reply) => {
    const rows = arrivals
      .map((a) => `<tr><td>${escapeHtml(a.receivedAt)}</td><td>${escapeHtml(a.bankCode)}</td><td>${escapeHtml(a.applicationNumber ?? '')}</td><td>${escapeHtml(a.idempotencyKey)}</td><td>${escapeHtml(a.signature)}</td><td>${a.duplicate ? 'yes' : ''}</td><td>${a.documents}</td></tr>`)
      .join('\n');
    return reply.type('text/html; charset=utf-8').send(`<!doctype html><html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bank receiver</title><style>body{font-family:sans-serif;margin:16px}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px}</style></head>
<body><h1>銀行への引き渡し（開発用受信口）</h1>${rows ? `<table><thead><tr><th>Received</th><th>Bank</th><th>Application number</th><th>Idempotency key</th><th>Signature</th><th>Duplicate</th><th>Documents</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>受信した申込みはありません。</p>'}</body></html>`);
  });
};

export default devBankReceiver;
