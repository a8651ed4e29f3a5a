import { asc } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { messages } from '../../domain/messages.js';
import { CachedRows } from '../db/changes.js';
import { notifications } from '../db/schema.js';
import { httpMessages } from '../http-messages.js';

const bankCodePattern = /^\d{4}$/;

/**
 * GET /api/notifications/:bankCode: the bank's notices in force now, oldest first. Every
 * bank's notices are kept in memory until the database says they changed (db/changes.ts).
 */
const notificationRoutes: FastifyPluginAsync = async (app) => {
  const notices = new CachedRows(app.changes, 'notifications', () =>
    app.db
      .select({ bankCode: notifications.bankCode, contents: notifications.contents, startsAt: notifications.startsAt, endsAt: notifications.endsAt })
      .from(notifications)
      .orderBy(asc(notifications.createdAt), asc(notifications.id)),
  );
  app.get<{ Params: { bankCode: string } }>('/notifications/:bankCode', async (request, reply) => {
    const { bankCode } = request.params;
    if (!bankCodePattern.test(bankCode)) return reply.code(400).send({ message: messages.badRequest });
    if (!app.banks.get(bankCode)) return reply.code(404).send({ message: httpMessages.notFound });
    const now = app.now().getTime();
    const inForce = (await notices.get()).filter(
      (row) => row.bankCode === bankCode && (row.startsAt === null || row.startsAt.getTime() <= now) && (row.endsAt === null || row.endsAt.getTime() > now),
    );
    return { notificationList: inForce.map((row) => ({ contents: row.contents })) };
  });
};

export default notificationRoutes;
