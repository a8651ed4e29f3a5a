import { and, asc, eq, gt, isNull, lte, or } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { messages } from '../../domain/messages.js';
import { notifications } from '../db/schema.js';
import { httpMessages } from '../http-messages.js';

const bankCodePattern = /^\d{4}$/;

/** GET /api/notifications/:bankCode: the bank's notices in force now, oldest first. */
const notificationRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { bankCode: string } }>('/notifications/:bankCode', async (request, reply) => {
    const { bankCode } = request.params;
    if (!bankCodePattern.test(bankCode)) return reply.code(400).send({ message: messages.badRequest });
    if (!app.banks.get(bankCode)) return reply.code(404).send({ message: httpMessages.notFound });
    const now = app.now();
    const rows = await app.db
      .select({ contents: notifications.contents })
      .from(notifications)
      .where(
        and(
          eq(notifications.bankCode, bankCode),
          or(isNull(notifications.startsAt), lte(notifications.startsAt, now)),
          or(isNull(notifications.endsAt), gt(notifications.endsAt, now)),
        ),
      )
      .orderBy(asc(notifications.createdAt), asc(notifications.id));
    return { notificationList: rows };
  });
};

export default notificationRoutes;
