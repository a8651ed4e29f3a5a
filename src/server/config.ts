import { repositoryRoot } from './paths.js';
import path from 'node:path';
import { defaultTimeouts, type ConnectionTimeouts } from './boundary/connection.js';
import { isRealDate } from '../domain/rules/dates.js';

/**
 * Everything the server reads from the environment, read once at start. Nothing else in
 * src/server looks at process.env, so tests build a config object and pass it in.
 */
export interface ServerConfig {
  /** PORT: TCP port to listen on (default 3000). */
  port: number;
  /** HOST: interface to bind (default 0.0.0.0 so phones on the LAN can reach a dev machine). */
  host: string;
  /**
   * DATA_DIR: where the server keeps its state (default ./data): the PGlite database in
   * `pglite/`, the generated secrets in `secrets.json`, the mail outbox in `outbox/`.
   * ':memory:' keeps the database and the outbox in memory (tests).
   */
  dataDir: string;
  /**
   * DATABASE_URL: a PostgreSQL connection string. When set the server uses PostgreSQL through
   * node-postgres instead of the embedded PGlite (several processes may then share it).
   */
  databaseUrl: string | null;
  /**
   * SMTP_URL: an SMTP server to send mail through, e.g. smtp://127.0.0.1:2525 or
   * smtps://user:pass@mail.example:465. Query parameters are nodemailer transport options
   * (?ignoreTLS=true, ?requireTLS=true, ?tls.servername=…). Unset: mails go to DATA_DIR/outbox.
   */
  smtpUrl: string | null;
  /** DEFAULT_BANK: bank served when the Host header names none of the banks (default 0177). */
  defaultBank: string;
  /** NODE_ENV=production: HSTS and upgrade-insecure-requests on, /dev routes off. */
  production: boolean;
  /** ANALYTICS_MEASUREMENT_ID: page-view analytics id; unset means no analytics. */
  analyticsMeasurementId: string | null;
  /** Limits of the verification-code calls, per rolling hour. */
  rateLimit: {
    /** RATE_LIMIT_ADDRESS_PER_HOUR: codes one mail address may request (default 5). */
    addressPerHour: number;
    /** RATE_LIMIT_IP_PER_HOUR: codes one client IP may request (default 30). */
    ipPerHour: number;
    /** RATE_LIMIT_VERIFY_IP_PER_HOUR: codes one client IP may try to verify (default 30). */
    verifyIpPerHour: number;
  };
  /** Connection limits (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, IDLE_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS). */
  timeouts: ConnectionTimeouts;
  /** EKYC_POLL_INTERVAL_MS: test-only override of the 5 s eKYC poll interval (default null). */
  ekycPollIntervalMs: number | null;
  /** The mail queue's timings and how many mails it sends at once (src/server/mail/queue.ts). */
  mailQueue: MailQueueSettings;
  /** The hand-off of completed applications to the banks (src/server/delivery/). */
  delivery: DeliverySettings;
  /** How long an applicant's session lasts without a request, and when the page warns first. */
  session: SessionTimings;
  /**
   * TRUST_PROXY: 'true', or the proxy addresses ('127.0.0.1,10.0.0.0/8'), when a reverse
   * proxy terminates the connection, so the client IP (rate limits) and the Host
   * (bank choice) come from X-Forwarded-*. Off by default: behind no proxy those headers are
   * attacker-controlled.
   */
  trustProxy: boolean | string;
  /** LOG_LEVEL: pino level (default info; tests use silent). */
  logLevel: string;
  /** BANKS_DIR: folder with one sub-folder per bank (default ./banks of the repository). */
  banksDir: string;
  /** DIST_DIR: built client (default ./dist/client of the repository). */
  distDir: string;
  /**
   * FLOWS_DIR: folder with the flow files general.json and child.json (default ./flows of the
   * repository). Read and linted at start and written into every page, so an edited copy of a
   * flow runs without rebuilding the client.
   */
  flowsDir: string;
  /**
   * SCHEMAS_DIR: folder with the forms' JSON Schemas (default ./schemas of the repository). The
   * server validates and stores each form from it; the page's validators are built from the
   * same folder (npm run build with the same SCHEMAS_DIR), so the two must not differ.
   */
  schemasDir: string;
  /**
   * EKYC_PROVIDER: the provider of the photo-ID method (IMAGE_SELFIE_PHOTO_ID;
   * src/server/ekyc/adapter.ts). 'simulator' (the default outside production) is the stand-in
   * shipped with the product: a page of this server at /ekyc-simulator/… on which anyone may
   * approve their own check, so production (NODE_ENV=production) must name it explicitly.
   * Which methods a bank offers, and when, is bank.json's identityCheckMethods (ADR 0037).
   */
  ekycProvider: PhotoIdProviderName;
  /**
   * IDENTITY_CHECK_METHODS_DAY: a day in Japan (YYYY-MM-DD) on which to judge the banks'
   * identity-check method windows (bank.json identityCheckMethods) instead of today, e.g.
   * 2027-04-01 on a staging system to rehearse a switch, or the tests' fixed day. Only which
   * methods are offered follows it; every time limit, session and rate limit keeps the real
   * clock. Refused in production (ADR 0043). Unset (the default): today.
   */
  identityCheckMethodsDay: string | null;
  /**
   * EKYC_OIDC_ISSUER, EKYC_OIDC_CLIENT_ID, EKYC_OIDC_CLIENT_SECRET: the OpenID provider of the
   * JPKI method (src/server/ekyc/oidc.ts) and this service's registration there. Issuer unset:
   * the stand-in this server mounts at /oidc-provider (src/server/ekyc/oidc-standin.ts), whose
   * client is registered by the server itself (id 'account-opening' by default); refused in
   * production when a bank offers JPKI_SIGNATURE (plugins/ekyc.ts).
   * EKYC_OIDC_STANDIN_ORIGIN: where the stand-in is reached, its issuer being
   * <origin>/oidc-provider (default http://127.0.0.1:<port listened on>): set it when the
   * processes are reached through another address than that loopback port (a proxy in front
   * of several, a phone on the LAN); every process must name the same one.
   */
  ekycOidc: { issuer: string | null; clientId: string; clientSecret: string | null; standinOrigin: string | null };
  /**
   * EKYC_CALLBACK_SECRET: the shared secret of the provider's signed callbacks (HMAC-SHA256,
   * header X-Ekyc-Signature). A real provider issues it; unset, the server generates one into
   * DATA_DIR/secrets.json (the simulator signs with the same value).
   */
  ekycCallbackSecret: string | null;
  /**
   * PIN_KEY_FILE: a PKCS#8 PEM RSA private key (2048 bits or more) to use as the current PIN
   * encryption key, e.g. one the bank's core system also holds. Unset: the server generates
   * key pairs into DATA_DIR/keys/ (mode 600) and uses the newest. Keys in DATA_DIR/keys stay
   * usable for decryption either way (src/server/pin/keys.ts).
   */
  pinKeyFile: string | null;
  /**
   * Test-only: secrets to use instead of DATA_DIR/secrets.json. Never read from the
   * environment, so a deployment cannot be given a weak pepper by mistake.
   */
  secrets?: ServerSecrets;
}

/** Values that must never be in git; generated on first start (see db/secrets.ts). */
export interface ServerSecrets {
  /** Key of the HMACs over mail addresses and verification codes (base64url, 32 bytes). */
  hmacPepper: string;
  /**
   * Key of the eKYC callback signatures when EKYC_CALLBACK_SECRET is not set (base64url, 32
   * bytes). Added to an existing secrets.json on the first start that needs it; optional
   * here so tests may give only the pepper (a random one is then used for the run).
   */
  ekycCallbackSecret?: string;
}

/** The names of the identity-check providers, as ekyc_sessions.provider stores them. */
export const ekycProviderNames = ['simulator', 'oidc'] as const;
export type EkycProviderName = (typeof ekycProviderNames)[number];

/** The providers of the photo-ID method EKYC_PROVIDER may name. */
export const photoIdProviderNames = ['simulator'] as const satisfies readonly EkycProviderName[];
export type PhotoIdProviderName = (typeof photoIdProviderNames)[number];

function ekycOidc(env: NodeJS.ProcessEnv): ServerConfig['ekycOidc'] {
  return {
    issuer: optional(env, 'EKYC_OIDC_ISSUER'),
    clientId: optional(env, 'EKYC_OIDC_CLIENT_ID') ?? 'account-opening',
    clientSecret: optional(env, 'EKYC_OIDC_CLIENT_SECRET'),
    standinOrigin: standinOrigin(optional(env, 'EKYC_OIDC_STANDIN_ORIGIN')),
  };
}

/** EKYC_OIDC_STANDIN_ORIGIN: an http(s) origin (scheme, host, port), or null. */
function standinOrigin(raw: string | null): string | null {
  if (raw === null) return null;
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (!url || !/^https?:$/.test(url.protocol)) throw new Error(`EKYC_OIDC_STANDIN_ORIGIN must be an http(s) origin such as http://192.168.1.10:3000, got ${raw}`);
  return url.origin;
}

function ekycProvider(raw: string | null, production: boolean): PhotoIdProviderName {
  if (raw === null) {
    if (production) {
      throw new Error('EKYC_PROVIDER must be set in production (EKYC_PROVIDER=simulator only for a demonstration)');
    }
    return 'simulator';
  }
  if (raw === 'oidc') {
    throw new Error('EKYC_PROVIDER=oidc is gone: the OpenID Connect (JPKI) method is offered per bank by bank.json identityCheckMethods (docs/adr/0037)');
  }
  const known = photoIdProviderNames.find((name) => name === raw);
  if (!known) throw new Error(`EKYC_PROVIDER must be one of ${photoIdProviderNames.join(', ')}, got ${raw}`);
  return known;
}

function identityCheckMethodsDay(raw: string | null, production: boolean): string | null {
  if (raw === null) return null;
  if (production) {
    throw new Error('IDENTITY_CHECK_METHODS_DAY must not be set in production: a live service offers the identity-check methods of the real day (docs/adr/0043)');
  }
  if (!isRealDate(raw)) throw new Error(`IDENTITY_CHECK_METHODS_DAY must be a day in Japan written YYYY-MM-DD, such as 2027-04-01, got ${raw}`);
  return raw;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got ${raw}`);
  return value;
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = integer(env, name, fallback);
  if (value === 0) throw new Error(`${name} must be at least 1`);
  return value;
}

function optional(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name]?.trim();
  return raw ? raw : null;
}

function trustProxy(raw: string | undefined): boolean | string {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  return raw === 'true' ? true : raw;
}

export interface SessionTimings {
  /** SESSION_IDLE_MS: a session with no request for this long ends (default 30 min). */
  idleMs: number;
  /** SESSION_WARNING_MS: how long before that the page offers to extend it (default 2 min; WCAG 2.2.1). */
  warningMs: number;
}

export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
const DEFAULT_SESSION_WARNING_MS = 2 * 60_000;

function sessionTimings(env: NodeJS.ProcessEnv): SessionTimings {
  const idleMs = integer(env, 'SESSION_IDLE_MS', DEFAULT_SESSION_IDLE_MS);
  const warningMs = integer(env, 'SESSION_WARNING_MS', DEFAULT_SESSION_WARNING_MS);
  if (warningMs >= idleMs) throw new Error(`SESSION_WARNING_MS (${warningMs}) must be shorter than SESSION_IDLE_MS (${idleMs})`);
  return { idleMs, warningMs };
}

export interface DeliverySettings {
  /** DELIVERY_RETRY_FIRST_MS: first retry after the bank refused or was down (default 10 s); each further one waits twice as long. */
  retryFirstMs: number;
  /** DELIVERY_RETRY_MAX_MS: the longest wait between tries (default 30 min); tried until it is taken. */
  retryMaxMs: number;
  /** DELIVERY_POLL_MS: how often an idle worker looks for due deliveries (default 1 s; a completion wakes it at once). */
  pollMs: number;
  /** DELIVERY_TIMEOUT_MS: how long one POST may take before it counts as failed (default 30 s). */
  timeoutMs: number;
  /** How long a worker holds a delivery it is sending before another may try it (5 min, well past the timeout). */
  lockMs: number;
  /** DELIVERY_CONCURRENCY: deliveries one process sends at once (default 2). */
  concurrency: number;
  /**
   * How long a worker gathers the deliveries the banks took before marking them delivered in one
   * statement (250 ms; the mail queue's sentRowsGatherMs). A process that dies meanwhile delivers
   * them again once their lock runs out, with the same idempotency key.
   */
  markGatherMs: number;
  /**
   * DELIVERY_SIGNING_KEY_FILE: PEM file of our Ed25519 private key (ADR 0033); required in
   * production. Unset elsewhere: a key derived from the server's pepper (DATA_DIR/secrets.json).
   */
  signingKeyFile: string | null;
}

export interface MailQueueSettings {
  /** MAIL_RETRY_FIRST_MS: first retry after a failure (default 5 s); each further one waits twice as long. */
  retryFirstMs: number;
  /** MAIL_RETRY_MAX_MS: the longest wait between tries (default 15 min). */
  retryMaxMs: number;
  /** MAIL_POLL_MS: how often an idle worker looks for due mail (default 1 s; a mail this process queues wakes it at once). */
  pollMs: number;
  /** How long a worker holds a mail it is sending before another may try it (5 min). */
  lockMs: number;
  /**
   * MAIL_CONCURRENCY: mails one process sends at once, each on a connection of the SMTP pool
   * (default 10). One at a time, a loaded server answered the SMTP server's round trips late and
   * the codes queued up behind each other; with five (nodemailer's own pool size) a process on
   * the embedded database, sending three mails per application at its saturation, kept every
   * slot busy and a code reached the mailbox 0.3 s after register instead of 0.08 s
   * (bench/load.ts). Ten per process stay within a relay's usual limit per client (Postfix: 50)
   * for a few processes on one address.
   */
  concurrency: number;
  /**
   * How long a worker gathers sent mails before deleting their rows in one statement (250 ms):
   * under load that is one statement for dozens of mails instead of about one per mail. A
   * process that dies meanwhile sends those mails again once their lock runs out, as it would
   * between a send and its delete anyway. A flush or stop deletes at once.
   */
  sentRowsGatherMs: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const pollInterval = optional(env, 'EKYC_POLL_INTERVAL_MS');
  const production = env.NODE_ENV === 'production';
  return {
    port: integer(env, 'PORT', 3000),
    host: optional(env, 'HOST') ?? '0.0.0.0',
    dataDir: optional(env, 'DATA_DIR') ?? path.join(repositoryRoot, 'data'),
    databaseUrl: optional(env, 'DATABASE_URL'),
    smtpUrl: optional(env, 'SMTP_URL'),
    defaultBank: optional(env, 'DEFAULT_BANK') ?? '0177',
    production,
    analyticsMeasurementId: optional(env, 'ANALYTICS_MEASUREMENT_ID'),
    rateLimit: {
      addressPerHour: integer(env, 'RATE_LIMIT_ADDRESS_PER_HOUR', 5),
      ipPerHour: integer(env, 'RATE_LIMIT_IP_PER_HOUR', 30),
      verifyIpPerHour: integer(env, 'RATE_LIMIT_VERIFY_IP_PER_HOUR', 30),
    },
    timeouts: {
      headersMs: integer(env, 'HEADERS_TIMEOUT_MS', defaultTimeouts.headersMs),
      requestMs: integer(env, 'REQUEST_TIMEOUT_MS', defaultTimeouts.requestMs),
      idleMs: integer(env, 'IDLE_TIMEOUT_MS', defaultTimeouts.idleMs),
      keepAliveMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', defaultTimeouts.keepAliveMs),
    },
    ekycPollIntervalMs: pollInterval === null ? null : integer(env, 'EKYC_POLL_INTERVAL_MS', 5000),
    mailQueue: {
      retryFirstMs: integer(env, 'MAIL_RETRY_FIRST_MS', 5_000),
      retryMaxMs: integer(env, 'MAIL_RETRY_MAX_MS', 15 * 60_000),
      pollMs: integer(env, 'MAIL_POLL_MS', 1_000),
      lockMs: 5 * 60_000,
      concurrency: positive(env, 'MAIL_CONCURRENCY', 10),
      sentRowsGatherMs: 250,
    },
    delivery: {
      retryFirstMs: integer(env, 'DELIVERY_RETRY_FIRST_MS', 10_000),
      retryMaxMs: integer(env, 'DELIVERY_RETRY_MAX_MS', 30 * 60_000),
      pollMs: integer(env, 'DELIVERY_POLL_MS', 1_000),
      timeoutMs: positive(env, 'DELIVERY_TIMEOUT_MS', 30_000),
      lockMs: 5 * 60_000,
      concurrency: positive(env, 'DELIVERY_CONCURRENCY', 2),
      markGatherMs: 250,
      signingKeyFile: optional(env, 'DELIVERY_SIGNING_KEY_FILE'),
    },
    session: sessionTimings(env),
    trustProxy: trustProxy(env.TRUST_PROXY),
    logLevel: optional(env, 'LOG_LEVEL') ?? 'info',
    banksDir: optional(env, 'BANKS_DIR') ?? path.join(repositoryRoot, 'banks'),
    distDir: optional(env, 'DIST_DIR') ?? path.join(repositoryRoot, 'dist', 'client'),
    flowsDir: optional(env, 'FLOWS_DIR') ?? path.join(repositoryRoot, 'flows'),
    schemasDir: optional(env, 'SCHEMAS_DIR') ?? path.join(repositoryRoot, 'schemas'),
    ekycProvider: ekycProvider(optional(env, 'EKYC_PROVIDER'), production),
    identityCheckMethodsDay: identityCheckMethodsDay(optional(env, 'IDENTITY_CHECK_METHODS_DAY'), production),
    ekycCallbackSecret: optional(env, 'EKYC_CALLBACK_SECRET'),
    ekycOidc: ekycOidc(env),
    pinKeyFile: optional(env, 'PIN_KEY_FILE'),
  };
}
