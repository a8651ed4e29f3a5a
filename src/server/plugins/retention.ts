import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { sweepExpiredStandinRows } from '../ekyc/oidc-standin-store.js';
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
 * Verification records (ADR 0034) are not part of an application: they outlive it, and go
 * when their bank's verificationRecordRetentionYears have passed since they were written,
 * through the database's purge function (the only DELETE the append-only trigger allows).
 *
 * The same round deletes the OpenID provider stand-in's rows past their expiry (codes,
 * interactions, sessions: ekyc/oidc-standin-store.ts; they are not found once expired anyway).
 */
const retention: FastifyPluginAsync = async (app) => {
  const purge = async () => {
    try {
      let deleted = 0;
      for (const bank of app.banks.all()) deleted += await purgeExpired(app.db, bank, app.now());
      const records = await purgeRecordsPastRetention(app.db, app.banks.all(), app.now());
      if (deleted > 0) app.log.info({ deleted }, 'retention: expired applications deleted');
      if (records > 0) app.log.info({ records }, 'retention: verification records past retention deleted');
      const standin = await sweepExpiredStandinRows(app.db);
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
