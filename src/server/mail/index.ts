import path from 'node:path';
import type { ServerConfig } from '../config.js';
import { OutboxMailSender } from './outbox.js';
import { SmtpMailSender } from './smtp.js';
import type { MailSender } from './types.js';

export type { MailMessage, MailSender, OutboxEntry } from './types.js';
export { OutboxMailSender } from './outbox.js';
export { SmtpMailSender } from './smtp.js';
export { completionMail } from './completion-mail.js';
export { verificationMail } from './verification-mail.js';
export { resumeMail } from './resume-mail.js';

/** SMTP when SMTP_URL is set, else the outbox in DATA_DIR/outbox (in memory for ':memory:'). */
export function createMailSender(config: Pick<ServerConfig, 'smtpUrl' | 'dataDir' | 'mailQueue'>): MailSender {
  if (config.smtpUrl) return new SmtpMailSender(config.smtpUrl, config.mailQueue.concurrency);
  return new OutboxMailSender(config.dataDir === ':memory:' ? null : path.join(config.dataDir, 'outbox'));
}
