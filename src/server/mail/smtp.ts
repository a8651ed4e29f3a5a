import nodemailer from 'nodemailer';
import type { MailMessage, MailSender } from './types.js';

const loopback = /^(localhost|127(?:\.\d{1,3}){3}|\[?::1\]?)$/i;

/**
 * How long a send may hang: well under the queue's 5-minute hold on a mail (mail/queue.ts), so a
 * stalled SMTP server fails the try instead of outliving the claim.
 */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

/**
 * What every mail is sent with. Our mails are Japanese text, for which nodemailer picks base64
 * anyway, after weighing it against quoted-printable on each mail: named, a mail is composed in
 * about 60 % of the CPU time (measured with nodemailer's stream transport), the bytes the same.
 */
export const MESSAGE_DEFAULTS = { textEncoding: 'base64' } as const;

/**
 * What nodemailer is given for a mail. Its Message-ID is made of the mail's id, the same on
 * every try: a mail the SMTP server took although its answer was lost, and that is sent again,
 * is recognisably one mail to the mail programs and relays that look (nodemailer would draw a
 * new one each time). The envelope is spelled out, as nodemailer would otherwise parse it back
 * out of the headers it was given.
 */
export function nodemailerMessage(message: MailMessage, id: string) {
  const domain = message.from.address.slice(message.from.address.lastIndexOf('@') + 1);
  return { ...message, messageId: `<${id}@${domain}>`, envelope: { from: message.from.address, to: [message.to] } };
}

type TransportOptions = { url: string; pool: true; maxConnections: number; ignoreTLS?: true } & typeof TIMEOUTS;

/**
 * Sends through the SMTP server of SMTP_URL. nodemailer reads the URL itself (smtp:// means
 * no implicit TLS, smtps:// implicit TLS, user:pass@ the login, ?key=value further options).
 * One default is ours: a plain smtp:// relay on this machine without credentials is used as
 * is, without STARTTLS (ignoreTLS), because local sinks and relays often advertise STARTTLS
 * with a self-signed certificate and there is no network to protect. ?requireTLS=true or
 * ?ignoreTLS=false in the URL turn this off.
 *
 * Pooled: the queue's worker sends over connections it keeps open (a new SMTP connection per
 * mail cost about 100 ms each), one connection for each mail it sends at once
 * (`maxConnections`, MAIL_CONCURRENCY); a `?maxConnections=` in the URL wins.
 */
export function smtpTransportOptions(smtpUrl: string, maxConnections: number): TransportOptions {
  const url = new URL(smtpUrl);
  const query = url.searchParams;
  if (
    url.protocol === 'smtp:' &&
    !url.username &&
    loopback.test(url.hostname) &&
    !query.has('ignoreTLS') &&
    !query.has('requireTLS')
  ) {
    return { url: smtpUrl, pool: true, maxConnections, ignoreTLS: true, ...TIMEOUTS };
  }
  return { url: smtpUrl, pool: true, maxConnections, ...TIMEOUTS };
}

export class SmtpMailSender implements MailSender {
  private readonly transport;

  constructor(smtpUrl: string, maxConnections: number) {
    this.transport = nodemailer.createTransport(smtpTransportOptions(smtpUrl, maxConnections), MESSAGE_DEFAULTS);
  }

  async send(message: MailMessage, id: string): Promise<void> {
    await this.transport.sendMail(nodemailerMessage(message, id));
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
