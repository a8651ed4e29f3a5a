import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { messages } from '../../domain/messages.js';
import { answerFor, isDatabaseError } from '../boundary/errors.js';
import { cleanDeep } from '../boundary/text.js';

/**
 * The request boundary, for every route at once: text is cleaned before any validation
 * (boundary/text.ts), a query parameter given twice is refused, and every error becomes a
 * `{ message }` answer in Japanese: a 4xx when the client caused it, a 500 only for our own
 * faults (boundary/errors.ts), logged without values (logging.ts).
 */
const requestBoundary: FastifyPluginAsync = async (app) => {
  app.addHook('preValidation', async (request, reply) => {
    if (request.body !== undefined && request.body !== null) request.body = cleanDeep(request.body);
    const query = request.query;
    if (typeof query === 'object' && query !== null) {
      cleanDeep(query);
      // ?to=a&to=b: which one is meant cannot be told. Pages (served by the not-found
      // handler, no route) ignore their query on the server, so a pasted link still opens.
      const routed = request.routeOptions.url !== undefined;
      if (routed && Object.values(query).some(Array.isArray)) {
        return reply.code(400).send({ message: messages.badRequest });
      }
    }
  });

  app.setErrorHandler(async (error, request, reply) => {
    const answer = answerFor(error);
    if (answer.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    // The schemas should have refused what the database refused: a gap to close.
    else if (isDatabaseError(error)) request.log.warn({ err: error }, 'database refused a value the schemas let through');
    else request.log.info({ err: error }, 'request rejected');
    return reply.code(answer.statusCode).send({ message: answer.message });
  });
};

export default fp(requestBoundary, { name: 'request-boundary', fastify: '5.x' });
