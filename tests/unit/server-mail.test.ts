import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BankConfig } from '../../src/domain/bank/types.js';
import { OutboxMailSender, verificationMail } from '../../src/server/mail/index.js';
import { smtpTransportOptions } from '../../src/server/mail/smtp.js';
import { parseOperatorTime, toJstIso } from '../../src/server/time.js';

const bank = {
  code: '0177',
  NAME: '福岡銀行',
  legalName: '株式会社福岡銀行',
  MAIL_ADDRESS: 'kouza-web@fukuokabank.co.jp',
  DOMAIN: 'kouza.fukuokabank.co.jp',
  CONTACT_INFORMATION: { name: 'サポートデスク', phoneNumber: '0120-000-000', receptionHours: '平日 9:00～17:00' },
} as BankConfig;

describe('outbox', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes each mail as .eml with a .json sidecar and lists them newest first', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kouza-outbox-'));
    const outbox = new OutboxMailSender(dir);
    await outbox.send(verificationMail(bank, 'first@example.com', '012345', 10), 'mail-1');
    await outbox.send(verificationMail(bank, 'second@example.com', '678901', 10), 'mail-2');
    const files = (await readdir(dir)).sort();
    expect(files.filter((name) => name.endsWith('.eml'))).toHaveLength(2);
    expect(files.filter((name) => name.endsWith('.json'))).toHaveLength(2);
    const list = await outbox.list();
    expect(list.map((entry) => entry.to)).toEqual(['second@example.com', 'first@example.com']);
    expect(list[0]).toMatchObject({ subject: '【福岡銀行】認証コードのお知らせ', from: { name: '福岡銀行' } });
    expect(list[0]?.text).toContain('認証コード：678901');
    const eml = await readFile(path.join(dir, `${list[0]?.id}.eml`), 'utf8');
    expect(eml).toMatch(/^From: =\?UTF-8\?/m);
    expect(eml).toContain('<kouza-web@fukuokabank.co.jp>');
    expect(eml).toContain('To: second@example.com');
    // Named by the mail's id, as over SMTP on every try.
    expect(eml).toContain('Message-ID: <mail-2@fukuokabank.co.jp>');
    expect(eml).toContain('OTP-Token: "678901"; origin="https://kouza.fukuokabank.co.jp"');
    // The Japanese text in base64 (MESSAGE_DEFAULTS), as it goes over SMTP too.
    expect(eml).toMatch(/^Content-Transfer-Encoding: base64$/m);
    const body = eml.slice(eml.indexOf('\n\n') + 2);
    expect(Buffer.from(body, 'base64').toString('utf8')).toContain('認証コード：678901');
  });

  it('keeps mails in memory without a directory', async () => {
    const outbox = new OutboxMailSender(null);
    await outbox.send(verificationMail(bank, 'x@example.com', '111111', 10), 'mail-3');
    expect((await outbox.list()).map((entry) => entry.to)).toEqual(['x@example.com']);
  });
});

describe('SMTP options', () => {
  it('skips STARTTLS only for a plain loopback relay without login', () => {
    expect(smtpTransportOptions('smtp://127.0.0.1:2525', 5)).toMatchObject({ url: 'smtp://127.0.0.1:2525', pool: true, ignoreTLS: true, socketTimeout: 30_000 });
    expect(smtpTransportOptions('smtp://localhost:25', 3)).toMatchObject({ url: 'smtp://localhost:25', pool: true, maxConnections: 3, ignoreTLS: true });
    expect(smtpTransportOptions('smtp://mail.example.jp:587', 5)).toEqual({ url: 'smtp://mail.example.jp:587', pool: true, maxConnections: 5, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
    expect(smtpTransportOptions('smtp://user:pass@127.0.0.1:25', 5)).toEqual({ url: 'smtp://user:pass@127.0.0.1:25', pool: true, maxConnections: 5, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
    expect(smtpTransportOptions('smtps://127.0.0.1:465', 5)).toEqual({ url: 'smtps://127.0.0.1:465', pool: true, maxConnections: 5, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
    expect(smtpTransportOptions('smtp://127.0.0.1:25?requireTLS=true', 5)).toEqual({ url: 'smtp://127.0.0.1:25?requireTLS=true', pool: true, maxConnections: 5, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
  });
});

describe('Japan time', () => {
  it('formats with the +09:00 offset', () => {
    expect(toJstIso(new Date('2026-11-30T15:00:00Z'))).toBe('2026-12-01T00:00:00+09:00');
  });

  it('reads operator times with or without an offset', () => {
    expect(parseOperatorTime('2026-12-01T00:00+09:00')?.toISOString()).toBe('2026-11-30T15:00:00.000Z');
    expect(parseOperatorTime('2026-12-01T00:00')?.toISOString()).toBe('2026-11-30T15:00:00.000Z');
    expect(parseOperatorTime('2026-12-01')?.toISOString()).toBe('2026-11-30T15:00:00.000Z');
    expect(parseOperatorTime('2026-12-01T00:00Z')?.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(parseOperatorTime('2026-13-01')).toBeNull();
    expect(parseOperatorTime('tomorrow')).toBeNull();
  });
});
