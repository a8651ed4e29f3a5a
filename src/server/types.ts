import type { LRUCache } from 'lru-cache';
import type { BankConfig } from '../domain/bank/types.js';
import type { ApplicationType } from './db/schema.js';
import type { Database } from './db/index.js';
import type { ChangeFeed } from './db/changes.js';
import type { BankRegistry } from './banks/registry.js';
import type { ServerConfig } from './config.js';
import type { Hasher } from './crypto.js';
import type { FuriganaReader } from './furigana/index.js';
import type { PostalLookup } from './postal/index.js';
import type { EkycProviders } from './ekyc/providers.js';
import type { MailSender } from './mail/types.js';
import type { MailQueue } from './mail/queue.js';
import type { SigningKey } from './delivery/signature.js';
import type { DeliveryWorker } from './delivery/worker.js';
import type { PinKeyStore } from './pin/keys.js';
import type { FlowVersions } from './flows/versions.js';
import type { FormCatalogue } from './forms/catalogue.js';
import type { StoredAnswers } from './forms/answers.js';
import type { EkycState } from './ekyc/sessions.js';
import type { CompletionState } from './completion/facts.js';
import type { MasterDataReader } from './masterdata/cached.js';

/** The applicant a valid authentication token belongs to (set by requireApplication). */
export interface AuthenticatedApplication {
  id: string;
  bankCode: string;
  applicationType: ApplicationType;
  /** The version of the flow the application runs (flows/versions.ts). */
  flowVersion: string | null;
  /**
   * Whether its PIN was stored when the session was checked. Final once true (one PIN per
   * application), so it may answer "already set" at once; a route that must know that no PIN
   * is set judges it again in the statement that writes.
   */
  pinSet: boolean;
  /** What it had stored when the session was checked: only on routes guarded by requireApplicationWithAnswers. */
  stored?: StoredAnswers;
  /** Its identity check when the session was checked: only on routes guarded by requireApplicationWithEkyc. */
  ekyc?: EkycState;
  /** What its completion is judged by when the session was checked: only on routes guarded by requireApplicationWithCompletion. */
  completion?: CompletionState;
}

// What the plugins of src/server/plugins add to Fastify, in one place.
declare module 'fastify' {
  interface FastifyInstance {
    config: ServerConfig;
    /** The clock of every rule with a time limit (tests inject their own). */
    now(): Date;
    db: Database;
    /** Which tables changed, from the database's notices (db/changes.ts). */
    changes: ChangeFeed;
    hasher: Hasher;
    /**
     * The sessions this process checked lately: `<bank>:<token hash>` → when (the server's
     * clock) their activity was recorded (plugins/auth.ts, requireSignedIn). In memory on
     * purpose: a process that does not know a session checks it in the database.
     */
    recentSessions: LRUCache<string, number>;
    banks: BankRegistry;
    /** The banks' occupations and branches, kept per process until they change (plugins/master-data.ts). */
    masterData: MasterDataReader;
    mail: MailSender;
    /** Mail waiting in the database for the SMTP server (plugins/mail.ts, mail/queue.ts). */
    mailQueue: MailQueue;
    /** The hand-off of completed applications to their banks (plugins/delivery.ts, delivery/worker.ts). */
    deliveries: DeliveryWorker;
    /** Our key that signs every hand-off (ADR 0033). */
    deliveryKey: SigningKey;
    /** Postal code -> address candidates (plugins/lookups.ts). */
    postal: PostalLookup;
    /** Kanji -> half-width kana (plugins/lookups.ts). */
    furigana: FuriganaReader;
    /** The RSA key pairs of the PIN encryption (plugins/pin-keys.ts); pending while the first key is generated. */
    pinKeys(): Promise<PinKeyStore>;
    /** The identity-check providers, one per method (plugins/ekyc.ts, ekyc/providers.ts). */
    ekyc: EkycProviders;
    /** The forms of SCHEMAS_DIR (plugins/forms.ts). */
    forms: FormCatalogue;
    /** The flow versions served to new applicants and run by older ones (plugins/flows.ts, flows/versions.ts). */
    flowVersions: FlowVersions;
  }

  interface FastifyRequest {
    /** The bank of the Host header, null when the host belongs to no bank of the group. */
    bank: BankConfig | null;
    /** Set by requireApplication; null on routes without it. */
    application: AuthenticatedApplication | null;
  }
}
