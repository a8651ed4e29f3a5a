/**
 * npm start / npm run serve: one Node process for the API and the built pages, plus the
 * operator socket DATA_DIR/operator.sock through which `npm run operator` works while the
 * server runs (plugins/operator-socket.ts; none with DATABASE_URL or DATA_DIR ':memory:').
 * Refuses to start on a broken flow file or bank folder, with a message naming file and path,
 * when another server already runs on the same DATA_DIR, and in production without a bank's
 * DELIVERY_ENDPOINT or the signing key (plugins/delivery.ts).
 */
import { operatorSocketPath } from './operator/socket-path.js';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { assertFlowsValid } from './flows/check.js';
import { deliveryProblems } from './plugins/delivery.js';
import pages from './plugins/pages.js';

async function main(): Promise<void> {
  const started = performance.now();
  const config = loadConfig();
  const { versioned: flows } = assertFlowsValid(config.flowsDir, config.schemasDir);
  const app = await buildApp(config, {
    flows,
    pages: async (instance) =>
      instance.register(pages, {
        distDir: config.distDir,
        flows,
        analyticsMeasurementId: config.analyticsMeasurementId,
        ekycPollIntervalMs: config.ekycPollIntervalMs,
        session: config.session,
        production: config.production,
      }),
  });
  const problems = deliveryProblems(config, app.banks);
  if (problems.length > 0) {
    await app.close();
    throw new Error(`Cannot hand applications to the banks:\n  ${problems.join('\n  ')}`);
  }
  const close = async (signal: string) => {
    app.log.info(`${signal}: shutting down`);
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void close('SIGINT'));
  process.once('SIGTERM', () => void close('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  const banks = app.banks.all().map((bank) => `http://${bank.code}.localhost:${config.port}/ (${bank.NAME})`);
  const socket = operatorSocketPath(config);
  console.log(
    `ready in ${Math.round(performance.now() - started)} ms on port ${config.port}\n  ${banks.join('\n  ')}` +
      (socket ? `\n  operator commands (npm run operator) via ${socket}` : ''),
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
