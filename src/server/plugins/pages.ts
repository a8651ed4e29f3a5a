import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { toPublicBankConfig, type BankConfig, type ClientSettings } from '../../domain/bank/types';
import type { VersionedFlow } from '../../domain/flow/types';
import { PAGE_DATA_IDS } from '../../domain/page-data';
import { methodsOffered } from '../ekyc/providers.js';
import { httpMessages } from '../http-messages.js';
import type { SessionTimings } from '../config.js';

export interface PagesOptions {
  distDir: string;
  /** The linted flows (FLOWS_DIR) with their versions: the client builds its routes and machines from them. */
  flows: VersionedFlow[];
  analyticsMeasurementId: string | null;
  ekycPollIntervalMs: number | null;
  session: SessionTimings;
  production: boolean;
}

const SETTINGS_PLACEHOLDER = '<!--client-settings-->';
const imageKinds = ['logo', 'top', 'card'] as const;
type ImageKind = (typeof imageKinds)[number];
const imageTypes: Record<string, string> = { '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg', '.webp': 'image/webp' };

/** JSON inside <script type="application/json">: `<` escaped so no text can close the element. */
export function jsonScript(id: string, value: unknown): string {
  const json = JSON.stringify(value).replace(/</g, '\\u003c');
  return `<script id="${id}" type="application/json">${json}</script>`;
}


function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A bank's page as sent: made once per process (it depends on the bank and the start options only), with its compressed copies. */
interface Shell {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

function shellOf(html: string): Shell {
  const identity = Buffer.from(html, 'utf8');
  return {
    identity,
    br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    gzip: gzipSync(identity, { level: 9 }),
  };
}

const encodings = new Negotiator({ supportedValues: ['br', 'gzip'] });

/** Sends a page in the encoding the browser prefers among Brotli and gzip, else as it is. */
function sendShell(request: FastifyRequest, reply: FastifyReply, shell: Shell) {
  const accepted = request.headers['accept-encoding'];
  const encoding = typeof accepted === 'string' ? encodings.negotiate(accepted) : null;
  reply.code(200).type('text/html; charset=utf-8').header('cache-control', 'no-store').header('vary', 'accept-encoding');
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding ? shell[encoding] : shell.identity);
}

/** The page for a host that belongs to no bank of the group: never another bank's page. */
export function unknownHostPage(host: string): string {
  return `<!doctype html><html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>ページが見つかりません</title></head>
<body style="font-family:sans-serif;padding:24px;line-height:1.7"><h1 style="font-size:20px">ページが見つかりません</h1>
<p>お探しのアドレス（${escapeHtml(host)}）では、口座開設のお申込みを受け付けておりません。</p>
<p>お取引の銀行のホームページから、あらためてアクセスしてください。</p></body></html>`;
}

/**
 * Serves the built single-page app for the bank chosen by the Host header: the page with that
 * bank's settings written in, the bank's own images under /bank/*, and the hashed assets.
 */
const pages: FastifyPluginAsync<PagesOptions> = async (app, options) => {
  const indexFile = join(options.distDir, 'index.html');
  if (!existsSync(indexFile)) throw new Error(`${indexFile} is missing: run "npm run build" first`);
  const template = readFileSync(indexFile, 'utf8');
  const flowsScript = jsonScript(PAGE_DATA_IDS.flows, options.flows);
  const shells = new Map<string, Shell>();

  await app.register(fastifyStatic, {
    root: join(options.distDir, 'assets'),
    prefix: '/assets/',
    // The .br and .gz copies written by the build (src/cli/precompress.ts), chosen by Accept-Encoding.
    preCompressed: true,
    immutable: true,
    maxAge: '365d',
    index: false,
    wildcard: true,
  });

  const sendUnknownHost = (reply: FastifyReply, host: string) =>
    reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(unknownHostPage(host));

  app.get<{ Params: { kind: string } }>('/bank/:kind', async (request, reply) => {
    const bank: BankConfig | null = request.bank;
    if (!bank) return sendUnknownHost(reply, request.hostname);
    const kind = request.params.kind as ImageKind;
    if (!imageKinds.includes(kind)) return reply.code(404).send({ message: httpMessages.notFound });
    const file = app.banks.imagePath(bank, kind);
    return reply
      .type(imageTypes[extname(file)] ?? 'application/octet-stream')
      .header('cache-control', 'public, max-age=86400')
      .send(readFileSync(file));
  });

  app.setNotFoundHandler((request, reply) => {
    const isPage = request.method === 'GET' && !request.url.startsWith('/api/') && !request.url.startsWith('/assets/');
    if (!isPage) return reply.code(404).send({ message: httpMessages.notFound });
    const bank = request.bank;
    if (!bank) return sendUnknownHost(reply, request.hostname);
    const identityCheckMethods = methodsOffered(app, bank);
    // One shell per bank and set of methods: the day a method starts or ends makes a new one.
    const key = `${bank.code} ${identityCheckMethods.join(',')}`;
    const made = shells.get(key);
    if (made) return sendShell(request, reply, made);
    const settings: ClientSettings = {
      bank: toPublicBankConfig(bank),
      analyticsMeasurementId: options.analyticsMeasurementId,
      ekycPollIntervalMs: options.ekycPollIntervalMs,
      session: options.session,
      production: options.production,
      identityCheckMethods,
    };
    const html = template
      .replace(SETTINGS_PLACEHOLDER, jsonScript(PAGE_DATA_IDS.settings, settings) + flowsScript)
      .replace('<title>口座開設のお申込み</title>', `<title>口座開設のお申込み | ${escapeHtml(bank.NAME)}</title>`);
    const shell = shellOf(html);
    shells.set(key, shell);
    return sendShell(request, reply, shell);
  });
};

export default pages;
