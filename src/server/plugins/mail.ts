import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { getTableName } from 'drizzle-orm';
import type { ServerConfig } from '../config.js';
import { mailQueue } from '../db/schema.js';
import { createMailSender, type MailSender } from '../mail/index.js';
import { MailQueue } from '../mail/queue.js';

/**
 * Decorates `app.mail`: the given sender (tests), else SMTP or the outbox per the config; and
 * `app.mailQueue`, whose worker sends the queued mail through it from the moment the server is
 * ready until it closes (the mails being sent then are finished first), woken by every
 * process's new mail through the database's change notices.
 */
const mail: FastifyPluginAsync<{ config: ServerConfig; sender?: MailSender }> = async (app, { config, sender }) => {
  const mailSender = sender ?? createMailSender(config);
  const queue = new MailQueue(app.db, mailSender, () => app.now(), app.log, config.mailQueue);
  app.decorate('mail', mailSender);
  app.decorate('mailQueue', queue);
  // Another process queued a mail (migration 0013's notice), or notices were lost and may
  // have carried one: look now rather than at the next poll.
  app.changes.onChange(getTableName(mailQueue), () => queue.wake());
  app.addHook('onReady', async () => queue.start());
  app.addHook('onClose', async () => {
    await queue.stop();
    await mailSender.close?.();
  });
};

export default fp(mail, { name: 'mail', fastify: '5.x', dependencies: ['database'] });
