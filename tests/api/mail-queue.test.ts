import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadBanks } from '../../src/server/banks/registry.js';
import { loadConfig, type ServerConfig } from '../../src/server/config.js';
import { mailQueue } from '../../src/server/db/schema.js';

/**
 * The durable mail queue against a real SMTP server that fails, comes back, and a server
 * process that restarts in between: the request never waits for the mail, and the mail is
 * sent once, later, by whichever process is running then.
 */
describe('mail through the durable queue', () => {
  let dataDir: string;
  let refusing = true;
  const received: string[] = [];
  /** The Message-ID of every message the server was sent, refused or not. */
  const messageIds: string[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messageIds.push(/^Message-ID: (.*)$/im.exec(Buffer.concat(chunks).toString('utf8'))?.[1]?.trim() ?? '(none)');
        if (refusing) {
          // A temporary failure, as a mail server under load answers.
          callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
          return;
        }
        received.push(...session.envelope.rcptTo.map((rcpt) => rcpt.address));
        callback();
      });
    },
  });
  let config: ServerConfig;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'kouza-mail-queue-'));
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    config = {
      ...loadConfig({}),
      dataDir,
      databaseUrl: null,
      smtpUrl: `smtp://127.0.0.1:${port}`,
      logLevel: 'silent',
      secrets: { hmacPepper: randomBytes(32).toString('base64url') },
      // Shortened for the test only; the defaults are 5 s doubling to 15 min.
      mailQueue: { retryFirstMs: 50, retryMaxMs: 200, pollMs: 60_000, lockMs: 60_000, concurrency: 5, sentRowsGatherMs: 250 },
    };
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(resolve));
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers at once while the SMTP server refuses, retries, and sends the mail after a restart', async () => {
    const banks = await loadBanks(config.banksDir);
    const bank = banks.get('0177');
    if (!bank) throw new Error('bank 0177 missing');
    const first = await buildApp(config, { banks });
    try {
      const response = await first.inject({
        method: 'POST',
        url: '/api/verification-codes/register',
        headers: { host: bank.DOMAIN },
        payload: { bankCode: '0177', mailAddress: 'queued@example.jp', applicationType: 'GENERAL' },
      });
      expect(response.statusCode).toBe(200);
      await first.mailQueue.flush();
      const [waiting] = await first.db.select().from(mailQueue);
      expect(waiting).toMatchObject({ kind: 'verification', attempts: 1, lastError: expect.stringContaining('451') as unknown });
      expect(received).toEqual([]);
      // The second try, after the backoff, is refused too and waits twice as long.
      await new Promise((resolve) => setTimeout(resolve, 60));
      await first.mailQueue.flush();
      const [again] = await first.db.select().from(mailQueue);
      expect(again?.attempts).toBe(2);
      expect((again?.nextAttemptAt.getTime() ?? 0) - Date.now()).toBeGreaterThan(40);
    } finally {
      await first.close();
    }

    // A new process on the same database, with the SMTP server back: the mail goes out once.
    refusing = false;
    const second = await buildApp(config, { banks });
    try {
      await second.ready();
      await new Promise((resolve) => setTimeout(resolve, 150));
      await second.mailQueue.flush();
      expect(received).toEqual(['queued@example.jp']);
      expect(await second.db.select().from(mailQueue)).toEqual([]);
      await second.mailQueue.flush();
      expect(received).toHaveLength(1);
      // Three tries, one mail: each carried the same Message-ID, made of its queue row's id.
      expect(messageIds).toHaveLength(3);
      expect(new Set(messageIds).size).toBe(1);
      expect(messageIds[0]).toMatch(new RegExp(`^<[0-9a-f-]{36}@${bank.MAIL_ADDRESS.split('@')[1]?.replace(/\./g, '\\.')}>$`));
    } finally {
      await second.close();
    }
  });
});
