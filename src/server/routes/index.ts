import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsync } from 'fastify';
import { messages } from '../../domain/messages.js';
import { databaseRateLimits } from '../boundary/rate-limits.js';
import { httpMessages } from '../http-messages.js';
import applicationRoutes from './applications.js';
import completionRoutes from './completion.js';
import documentRoutes from './documents.js';
import ekycRoutes from './ekyc.js';
import flowRoutes from './flows.js';
import formStepRoutes from './form-steps.js';
import lookupRoutes from './lookups.js';
import maintenance from './maintenance.js';
import masterDataRoutes from './master-data.js';
import notificationRoutes from './notifications.js';
import pinRoutes from './pin.js';
import resumeRoutes from './resume.js';
import sessionRoutes from './session.js';
import verificationCodeRoutes from './verification-codes.js';

/** Everything under /api (registered with that prefix). Each file is one resource. */
const api: FastifyPluginAsync = async (app) => {
  // In the database, not in this process's memory: every server process counts the same hits.
  const limits = databaseRateLimits({ db: app.db, hasher: app.hasher, now: () => app.now() });
  // Off by default; the routes that need a limit say so (global: false).
  await app.register(rateLimit, {
    global: false,
    store: limits.store,
    // Thrown, then answered by the app's error handler as { message }.
    errorResponseBuilder: (_request, context) =>
      Object.assign(new Error(messages.tooManyRequests), { statusCode: context.statusCode }),
  });

  await app.register(maintenance);
  await app.register(notificationRoutes);
  await app.register(verificationCodeRoutes, { rateLimits: limits });
  await app.register(resumeRoutes);
  await app.register(sessionRoutes);
  await app.register(applicationRoutes);
  await app.register(formStepRoutes);
  await app.register(flowRoutes);
  await app.register(lookupRoutes);
  await app.register(masterDataRoutes);
  await app.register(pinRoutes);
  await app.register(ekycRoutes);
  await app.register(documentRoutes);
  await app.register(completionRoutes);

  // An unknown API path is a JSON 404, never the single-page app's HTML.
  app.setNotFoundHandler(async (_request, reply) => reply.code(404).send({ message: httpMessages.notFound }));
};

export default api;
