import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { minimizeDelivered, purgeStubs } from '../delivery/minimize.js';
import { sweepExpiredStandinRows } from '../ekyc/oidc-standin-store.js';
import { purgeSpentCodes } from '../routes/verification-codes.js';
import { purgeRecordsPastRetention } from '../records/read.js';
import { purgeExpired } from '../resume/applications.js';

/** How often each process deletes the applications past their bank's retention. */
const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * Retention (ADR 0030): an application not completed is kept for its bank's
 * applicationRetentionDays after its last write, so that the applicant can resume it, and is
 * then deleted with everything it holds. Each process purges at start and every hour; the
 * statement is the same whichever process runs it, so several processes need no coordination.
 * (Resume refuses an application past its retention even before the purge reaches it.)
 *
 * A completed application keeps its data until its bank confirmed receipt and the bank's
 * deliveredApplicationRetentionDays have passed; then only its stub stays (ADR 0036,
 * delivery/minimize.ts: each application in a transaction that claims its delivery row first,
 * so two processes running this at once never both take one).
 *
 * The stub goes when the bank's verificationRecordRetentionYears have passed since completion.
 * A verification code (an HMAC of the address and of the code) goes a day after it expired:
 * by then nothing reads it (the per-address limits count in rate_limits).
 *
 * Verification records (ADR 0034) are not part of an application: they outlive it, and go
 * when their bank's verificationRecordRetentionYears have passed since they were written,
 * through the database's purge function (the only DELETE the append-only trigger allows).
 *
 * The same round deletes the OpenID provider stand-in's rows past their expiry (codes,
 * interactions, sessions: ekyc/oidc-standin-store.ts; they are not found once expired anyway).
 */
export interface RetentionRound {
  /** Unfinished applications deleted. */
  deleted: number;
  /** Delivered applications reduced to their stub. */
  minimized: number;
  /** Stubs deleted with their bank's record retention. */
  stubs: number;
  /** Verification records deleted. */
  records: number;
  /** Verification codes deleted a day after they expired. */
  codes: number;
  /** Rows of the OpenID provider stand-in past their expiry. */
  standin: number;
}

/** One round of the job, for every bank; what each process runs at start and every hour. */
export async function retentionRound(app: Pick<FastifyInstance, 'db' | 'hasher' | 'banks' | 'now'>): Promise<RetentionRound> {
  let deleted = 0;
  let minimized = 0;
  let stubs = 0;
  for (const bank of app.banks.all()) {
    deleted += await purgeExpired(app.db, bank, app.now());
    minimized += await minimizeDelivered(app.db, app.hasher, bank, app.now());
    stubs += await purgeStubs(app.db, bank, app.now());
  }
  const records = await purgeRecordsPastRetention(app.db, app.banks.all(), app.now());
  const codes = await purgeSpentCodes(app.db, app.now());
  const standin = await sweepExpiredStandinRows(app.db);
  return { deleted, minimized, stubs, records, codes, standin };
}

const retention: FastifyPluginAsync = async (app) => {
  const purge = async () => {
    try {
      const { deleted, minimized, stubs, records, codes, standin } = await retentionRound(app);
      if (deleted > 0) app.log.info({ deleted }, 'retention: expired applications deleted');
      if (minimized > 0) app.log.info({ minimized }, 'retention: delivered applications reduced to their stub');
      if (stubs > 0) app.log.info({ stubs }, 'retention: stubs of delivered applications past the record retention deleted');
      if (codes > 0) app.log.info({ codes }, 'retention: spent verification codes deleted');
      if (records > 0) app.log.info({ records }, 'retention: verification records past retention deleted');
      if (standin > 0) app.log.info({ standin }, 'retention: expired rows of the OpenID provider stand-in deleted');
    } catch (error) {
      app.log.error({ err: error }, 'retention: purge failed, will retry');
    }
  };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const start = () => {
    running = running.then(purge);
  };
  app.addHook('onReady', async () => {
    start();
    timer = setInterval(start, PURGE_EVERY_MS);
    timer.unref();
  });
  // Before the database closes (its onClose runs after this one: registered earlier).
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
};

export default fp(retention, { name: 'retention', fastify: '5.x', dependencies: ['database', 'banks'] });
