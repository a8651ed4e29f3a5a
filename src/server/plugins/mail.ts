import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { ServerConfig } from '../config.js';
import { createMailSender, type MailSender } from '../mail/index.js';

/** Decorates `app.mail`: the given sender (tests), else SMTP or the outbox per the config. */
const mail: FastifyPluginAsync<{ config: ServerConfig; sender?: MailSender }> = async (app, { config, sender }) => {
  const mailSender = sender ?? createMailSender(config);
  app.decorate('mail', mailSender);
  app.addHook('onClose', async () => {
    await mailSender.close?.();
  });
};

export default fp(mail, { name: 'mail', fastify: '5.x' });
