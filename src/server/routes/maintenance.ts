import { asc } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { CachedRows } from '../db/changes.js';
import { maintenanceWindows } from '../db/schema.js';
import { httpMessages } from '../http-messages.js';
import { toJstIso } from '../time.js';

/**
 * GET /api/maintenance: the window in progress, else the next one, as Japan-time ISO strings;
 * 404 when none lies ahead. The browser shows its modal only while now is inside the window,
 * so announcing the next one early is harmless and lets it be cached by nobody (no-store).
 * The windows are few and change rarely: each process keeps them until the database says
 * they changed (db/changes.ts), and picks the one for now from memory.
 */
const maintenance: FastifyPluginAsync = async (app) => {
  const windows = new CachedRows(app.changes, 'maintenance_windows', () =>
    app.db
      .select({ startedAt: maintenanceWindows.startedAt, endedAt: maintenanceWindows.endedAt })
      .from(maintenanceWindows)
      .orderBy(asc(maintenanceWindows.startedAt), asc(maintenanceWindows.id)),
  );
  app.get('/maintenance', async (_request, reply) => {
    const now = app.now().getTime();
    const window = (await windows.get()).find((row) => row.endedAt.getTime() > now);
    if (!window) return reply.code(404).send({ message: httpMessages.notFound });
    return { startedAt: toJstIso(window.startedAt), endedAt: toJstIso(window.endedAt) };
  });
};

export default maintenance;
