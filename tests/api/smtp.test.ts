import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadBanks } from '../../src/server/banks/registry.js';
import { loadConfig } from '../../src/server/config.js';
import { randomBytes } from 'node:crypto';
import { backends, throwawaySchema } from './helpers.js';
import { bodyText, decodeWords, header, startSmtpSink, type ReceivedMail, type SmtpSink } from './smtp-sink.js';

describe.each(backends)('mail over SMTP ($name)', (backend) => {
  const received: ReceivedMail[] = [];
  let sink: SmtpSink;
  let database: Awaited<ReturnType<typeof throwawaySchema>> | null = null;

  beforeAll(async () => {
    sink = await startSmtpSink((mail) => received.push(mail));
  });
  afterAll(async () => {
    await sink?.close();
    await database?.drop();
  });

  it('sends the code from the bank name and address through SMTP_URL', async () => {
    database = backend.url ? await throwawaySchema(backend.url) : null;
    const config = {
      ...loadConfig({}),
      dataDir: ':memory:',
      databaseUrl: database?.databaseUrl ?? null,
      smtpUrl: sink.url,
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
