import type { Writable } from 'node:stream';
import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyReply } from 'fastify';
import { operatorSocketPath } from './operator/socket-path.js';
import type { BankRegistry } from './banks/registry.js';
import { connectionOptions } from './boundary/connection.js';
import { answerFor } from './boundary/errors.js';
import type { ServerConfig } from './config.js';
import { httpMessages } from './http-messages.js';
import type { VersionedFlow } from '../domain/flow/types.js';
import { loggerOptions, SafeLogController } from './logging.js';
import type { MailSender } from './mail/index.js';
import auth from './plugins/auth.js';
import banks from './plugins/banks.js';
import database from './plugins/database.js';
import delivery from './plugins/delivery.js';
import ekyc from './plugins/ekyc.js';
import flows from './plugins/flows.js';
import retention from './plugins/retention.js';
import forms from './plugins/forms.js';
import lookups from './plugins/lookups.js';
import mail from './plugins/mail.js';
import masterData from './plugins/master-data.js';
import operatorSocket from './plugins/operator-socket.js';
import pinKeys from './plugins/pin-keys.js';
import requestBoundary from './plugins/request-boundary.js';
import security from './plugins/security.js';
import api from './routes/index.js';
import devOutbox from './routes/dev-outbox.js';
import devBankReceiver from './routes/dev-bank-receiver.js';
import './types.js';

/** The largest JSON (or other non-multipart) body any route accepts: 64 KiB. */
export const JSON_BODY_LIMIT = 64 * 1024;

export interface BuildAppOptions {
  /** A loaded registry (tests); default: loadBanks(config.banksDir). */
  banks?: BankRegistry;
  /** Where mail goes (tests); default: SMTP_URL or the outbox in DATA_DIR. */
  mailSender?: MailSender;
  /** The clock of every time limit (tests move it forward); default: the system clock. */
  now?: () => Date;
  /** The linted flows (main.ts lints them once for the pages too); default: FLOWS_DIR, linted here. */
  flows?: VersionedFlow[];
  /** The HTML page plugin (src/server/plugins/pages.ts), registered last; bind its options in a closure. */
  pages?: FastifyPluginAsync;
  /** Where log lines go (tests inspect them); default: stdout. */
  logStream?: Writable;
  /**
   * The Unix socket on which `npm run operator` hands commands to this server
   * (plugins/operator-socket.ts); null for none. Default: DATA_DIR/operator.sock, none with
   * DATA_DIR ':memory:' or DATABASE_URL (see operatorSocketPath in operator/socket-path.ts).
   */
  operatorSocket?: string | null;
}

/**
 * The whole HTTP application, composed of plugins in dependency order: the request boundary
 * (text cleaning, error answers) and security headers first (they apply to every answer),
 * then the operator socket, the forms of SCHEMAS_DIR, the database, the linted flows and their kept versions, the banks of the Host header and
 * their master data, the postal and furigana lookups, mail, the PIN keys, the eKYC provider
 * (and its simulator's pages), the session check, the API under /api, the development outbox,
 * and the pages last (their catch-all 404 handler answers every path no one else claimed).
 */
export async function buildApp(config: ServerConfig, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    logController: new SafeLogController(),
    trustProxy: config.trustProxy,
    // The database plugin starts PGlite (a WebAssembly PostgreSQL) and runs migrations, which
    // can take longer than Fastify's 10 s default on a slow or busy machine.
    pluginTimeout: 120_000,
    ...connectionOptions(config.timeouts),
    // JSON bodies are a few hundred bytes (the personal form is the largest); uploads have
    // their own limits (routes/documents.ts).
    bodyLimit: JSON_BODY_LIMIT,
    // What the router refuses before any route or hook runs (a URL that is not valid
    // percent-encoding, a path parameter over its length), answered like every other error.
    frameworkErrors: (error, _request, reply) => {
      const answer = answerFor(error);
      // Fastify types this reply with generic route types that no route narrows here.
      void (reply as FastifyReply).code(answer.statusCode).send({ message: answer.message });
    },
  });

  app.decorate('config', config);
  app.decorate('now', options.now ?? (() => new Date()));

  // First: its hooks and error handler apply to everything registered after it.
  await app.register(requestBoundary);
  await app.register(security, { config });
  // Before the database: it refuses to start when another server answers on DATA_DIR's socket,
  // before this process could open the same PGlite files.
  const socketPath = options.operatorSocket === undefined ? operatorSocketPath(config) : options.operatorSocket;
  if (socketPath) await app.register(operatorSocket, { path: socketPath });
  await app.register(forms, { config });
  await app.register(database, { config });
  await app.register(flows, { config, ...(options.flows ? { flows: options.flows } : {}) });
  await app.register(banks, { config, ...(options.banks ? { registry: options.banks } : {}) });
  await app.register(masterData, { config });
  await app.register(lookups);
  await app.register(mail, { config, ...(options.mailSender ? { sender: options.mailSender } : {}) });
  await app.register(delivery, { config });
  await app.register(pinKeys, { config });
  // The identity-check provider; the simulator's pages (/ekyc-simulator/…) come with it.
  await app.register(ekyc, { config });
  await app.register(auth);
  await app.register(retention);
  await app.register(api, { prefix: '/api' });
  if (!config.production) await app.register(devOutbox);
  if (!config.production) await app.register(devBankReceiver);
  if (options.pages) await app.register(options.pages);
  // Without pages (API tests) every unknown path is the API's JSON 404, in Japanese.
  else app.setNotFoundHandler(async (_request, reply) => reply.code(404).send({ message: httpMessages.notFound }));
  return app;
}
