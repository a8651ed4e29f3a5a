import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { MESSAGE_DEFAULTS, nodemailerMessage } from './smtp.js';
import type { MailMessage, MailSender, OutboxEntry } from './types.js';

/**
 * Where mail goes when no SMTP server is configured (development, tests, demos): each mail is
 * rendered by nodemailer exactly as it would go over SMTP and written as `<id>.eml` (open it in
 * any mail program), with a `<id>.json` sidecar for programs (GET /dev/outbox.json). With no
 * directory (DATA_DIR ':memory:') the entries are kept in memory only.
 */
let sequence = 0;

export class OutboxMailSender implements MailSender {
  // streamTransport renders the RFC 822 message without sending it anywhere.
  private readonly transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }, MESSAGE_DEFAULTS);
  private readonly memory: OutboxEntry[] = [];

  constructor(readonly dir: string | null) {}

  async send(message: MailMessage, mailId: string): Promise<void> {
    const sentAt = new Date();
    // Sorts by name in sending order: time, then a per-process sequence for mails of one millisecond.
    sequence = (sequence + 1) % 1_000_000;
    const id = `${sentAt.toISOString().replace(/[-:.]/g, '')}-${String(sequence).padStart(6, '0')}-${randomUUID()}`;
    const entry: OutboxEntry = {
      id,
      from: message.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      sentAt: sentAt.toISOString(),
    };
    if (this.dir === null) {
      this.memory.push(entry);
      return;
    }
    const info = await this.transport.sendMail({ ...nodemailerMessage(message, mailId), date: sentAt });
    await mkdir(this.dir, { recursive: true });
    // The .eml first: a reader that sees the sidecar can rely on the message being there.
    await writeFile(path.join(this.dir, `${id}.eml`), info.message, { mode: 0o600 });
    await writeFile(path.join(this.dir, `${id}.json`), `${JSON.stringify(entry, null, 2)}\n`, { mode: 0o600 });
  }

  async list(): Promise<OutboxEntry[]> {
    let entries: OutboxEntry[];
    if (this.dir === null) {
      entries = [...this.memory];
    } else {
      let names: string[];
      try {
        names = (await readdir(this.dir)).filter((name) => name.endsWith('.json'));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      entries = await Promise.all(
        names.map(async (name) => JSON.parse(await readFile(path.join(this.dir as string, name), 'utf8')) as OutboxEntry),
      );
    }
    return entries.sort((a, b) => b.id.localeCompare(a.id));
  }
}
