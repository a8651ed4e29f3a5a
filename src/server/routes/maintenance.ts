import { asc, gt } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { maintenanceWindows } from '../db/schema.js';
import { httpMessages } from '../http-messages.js';
import { toJstIso } from '../time.js';

/**
 * GET /api/maintenance: the window in progress, else the next one, as Japan-time ISO strings;
 * 404 when none lies ahead. The browser shows its modal only while now is inside the window,
 * so announcing the next one early is harmless and lets it be cached by nobody (no-store).
 */
const maintenance: FastifyPluginAsync = async (app) => {
  app.get('/maintenance', async (_request, reply) => {
    const [window] = await app.db
      .select({ startedAt: maintenanceWindows.startedAt, endedAt: maintenanceWindows.endedAt })
      .from(maintenanceWindows)
      .where(gt(maintenanceWindows.endedAt, app.now()))
      .orderBy(asc(maintenanceWindows.startedAt), asc(maintenanceWindows.id))
      .limit(1);
    if (!window) return reply.code(404).send({ message: httpMessages.notFound });
    return { startedAt: toJstIso(window.startedAt), endedAt: toJstIso(window.endedAt) };
  });
};

export default maintenance;
