import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { verificationCodeIn } from './helpers.js';

/**
 * A plain local SMTP sink (smtp-server) on a free loopback port, for the SMTP test and the
 * benches: no login, and its default STARTTLS offer (self-signed) must be ignored by the
 * server for a loopback smtp:// URL. Each message is handed over whole, as received, with the
 * envelope; the helpers below read it the way a mail program would.
 */

export interface ReceivedMail {
  from: string | undefined;
  to: string[];
  raw: string;
}

export interface SmtpSink {
  /** SMTP_URL of the sink, e.g. smtp://127.0.0.1:40123. */
  url: string;
  close(): Promise<void>;
}

export async function startSmtpSink(onMail: (mail: ReceivedMail) => void): Promise<SmtpSink> {
  const smtp = new SMTPServer({
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        onMail({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => smtp.close(resolve)),
  };
}

/** A sink that keeps the verification codes it receives, by address (completion mails are ignored). */
export interface CodeSink extends SmtpSink {
  /** The code mailed to an address: at once if it has arrived, else when it does (rejects after timeoutMs). */
  codeFor(address: string, timeoutMs?: number): Promise<string>;
}

export async function startCodeSink(): Promise<CodeSink> {
  const waiters = new Map<string, (code: string) => void>();
  const arrived = new Map<string, string>();
  const sink = await startSmtpSink((mail) => {
    const code = verificationCodeIn(bodyText(mail.raw));
    const to = mail.to[0];
    if (!code || !to) return;
    const waiter = waiters.get(to);
    if (waiter) {
      waiters.delete(to);
      waiter(code);
    } else arrived.set(to, code);
  });
  const codeFor = (address: string, timeoutMs = 60_000): Promise<string> => {
    const code = arrived.get(address);
    if (code) {
      arrived.delete(address);
      return Promise.resolve(code);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(address);
        reject(new Error(`no code mailed within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.set(address, (value) => {
        clearTimeout(timer);
        resolve(value);
      });
    });
  };
  return { ...sink, codeFor };
}

/** Decodes RFC 2047 encoded words (=?UTF-8?B?…?= and =?UTF-8?Q?…?=) of a header. */
export function decodeWords(header: string): string {
  return header
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_all, encoding: string, text: string) =>
      encoding.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8'),
    );
}

/** The text body of a single-part message, transfer encoding undone. */
export function bodyText(raw: string): string {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(head)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    return Buffer.from(
      body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  }
  return body;
}

/** A header's value (folded lines joined), encoded words left as they are. */
export function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(unfolded)?.[1];
}
