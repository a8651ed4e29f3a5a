import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { ServerConfig } from '../config.js';
import { createMailSender, type MailSender } from '../mail/index.js';
import { MailQueue } from '../mail/queue.js';

/**
 * Decorates `app.mail`: the given sender (tests), else SMTP or the outbox per the config; and
 * `app.mailQueue`, whose worker sends the queued mail through it from the moment the server is
 * ready until it closes (the mails being sent then are finished first).
 */
const mail: FastifyPluginAsync<{ config: ServerConfig; sender?: MailSender }> = async (app, { config, sender }) => {
  const mailSender = sender ?? createMailSender(config);
  const queue = new MailQueue(app.db, mailSender, () => app.now(), app.log, config.mailQueue);
  app.decorate('mail', mailSender);
  app.decorate('mailQueue', queue);
  app.addHook('onReady', async () => queue.start());
  app.addHook('onClose', async () => {
    await queue.stop();
    await mailSender.close?.();
  });
};

export default fp(mail, { name: 'mail', fastify: '5.x', dependencies: ['database'] });
