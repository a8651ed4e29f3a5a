import type { FastifyPluginAsync } from 'fastify';
import { messages } from '../../domain/messages.js';
import { isFlowVersion } from '../flows/version.js';
import { httpMessages } from '../http-messages.js';

/**
 * GET /api/flows/:version -> { version, flow }
 *
 * The definition of a kept flow version (flows/versions.ts), for the page of an applicant who
 * started on a flow older (or newer) than the one written into the page: it runs its own
 * version's routes, navigation guard and machine. Public, like the flows in every page; a
 * version's content never changes, so it may be cached for good. 404 once the version is dropped.
 */
const flowRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { version: string } }>('/flows/:version', async (request, reply) => {
    const { version } = request.params;
    if (!isFlowVersion(version)) return reply.code(400).send({ message: messages.badRequest });
    const found = await app.flowVersions.find(version);
    if (!found) return reply.code(404).send({ message: httpMessages.notFound });
    reply.header('cache-control', 'public, max-age=31536000, immutable');
    return { version: found.version, flow: found.flow };
  });
};

export default flowRoutes;
