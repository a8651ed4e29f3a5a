import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { buildApp } from '../../src/server/app.js';
import { loadBanks } from '../../src/server/banks/registry.js';
import { loadConfig } from '../../src/server/config.js';
import { randomBytes } from 'node:crypto';
import { backends, throwawaySchema } from './helpers.js';

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
}

/** Decodes RFC 2047 encoded words (=?UTF-8?B?…?= and =?UTF-8?Q?…?=) of a header. */
function decodeWords(header: string): string {
  return header
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_all, encoding: string, text: string) =>
      encoding.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8'),
    );
}

/** The text body of a single-part message, transfer encoding undone. */
function bodyText(raw: string): string {
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

function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(unfolded)?.[1];
}

describe.each(backends)('mail over SMTP ($name)', (backend) => {
  const received: Received[] = [];
  // A plain local SMTP sink: no login, and its default STARTTLS offer (self-signed) must be
  // ignored by the server for a loopback smtp:// URL.
  const smtp = new SMTPServer({
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  let port = 0;
  let database: Awaited<ReturnType<typeof throwawaySchema>> | null = null;

  beforeAll(async () => {
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(resolve));
    await database?.drop();
  });

  it('sends the code from the bank name and address through SMTP_URL', async () => {
    database = backend.url ? await throwawaySchema(backend.url) : null;
    const config = {
      ...loadConfig({}),
      dataDir: ':memory:',
      databaseUrl: database?.databaseUrl ?? null,
      smtpUrl: `smtp://127.0.0.1:${port}`,
      logLevel: 'silent',
      secrets: { hmacPepper: randomBytes(32).toString('base64url') },
    };
    const banks = await loadBanks(config.banksDir);
    const bank = banks.get('0181');
    if (!bank) throw new Error('bank 0181 missing');
    const app = await buildApp(config, { banks });
    try {
      const response = await app.inject({
        method: 'POST',
        url: '/api/verification-codes/register',
        headers: { host: bank.DOMAIN },
        payload: { bankCode: '0181', mailAddress: 'hanako@example.jp', applicationType: 'GENERAL' },
      });
      expect(response.statusCode).toBe(200);
      // The answer does not wait for the SMTP server: the queue sends the mail.
      await app.mailQueue.flush();
    } finally {
      await app.close();
    }

    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail?.from).toBe(bank.MAIL_ADDRESS);
    expect(mail?.to).toEqual(['hanako@example.jp']);
    const raw = mail?.raw ?? '';
    expect(decodeWords(header(raw, 'From') ?? '')).toBe(`${bank.NAME} <${bank.MAIL_ADDRESS}>`);
    expect(decodeWords(header(raw, 'Subject') ?? '')).toBe(`【${bank.NAME}】認証コードのお知らせ`);
    const text = bodyText(raw);
    const code = /認証コード：(\d{6})/.exec(text)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(text).toContain('10分間');
    expect(text).toContain('お心当たりのない場合');
    expect(header(raw, 'OTP-Token')).toBe(`"${code}"; origin="https://${bank.DOMAIN}"`);
  });
});
