/**
 * The banks' side of the hand-off for the benches: a plain HTTP server in the driver's process
 * that takes every delivery (POST, read to the end) with 200, as a bank's receiver would, and a
 * copy of banks/ whose DELIVERY_ENDPOINTs point at it (BANKS_DIR), the way an operator
 * configures a bank. Without it the server under test would deliver to its own development
 * receiver (routes/dev-bank-receiver.ts) and its CPU per application would include the bank's
 * work: reading the request and checking our signature. It checks nothing itself; it counts the
 * applications that arrived, so the bench can say the hand-off kept up.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IDEMPOTENCY_HEADER } from '../src/server/delivery/signature.js';

const banksDir = fileURLToPath(new URL('../banks/', import.meta.url));

/** How long after a load the benches wait for its last deliveries to reach the receiver. */
export const DELIVERY_WAIT_MS = 5_000;

export interface BankReceiver {
  /** BANKS_DIR for the server: the repository's banks, delivering here. */
  banksDir: string;
  /** Applications that arrived (distinct idempotency keys). */
  arrived(): number;
  /** How many arrived since `before` (an arrived() count), once `expected` have or DELIVERY_WAIT_MS has passed. */
  arrivedSince(before: number, expected: number): Promise<number>;
  close(): Promise<void>;
}

export async function startBankReceiver(): Promise<BankReceiver> {
  const keys = new Set<string>();
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const key = request.headers[IDEMPOTENCY_HEADER.toLowerCase()];
      if (request.method === 'POST' && typeof key === 'string') keys.add(key);
      response.writeHead(request.method === 'POST' ? 200 : 405).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const dir = await mkdtemp(path.join(tmpdir(), 'kouza-bench-banks-'));
  await cp(banksDir, dir, { recursive: true });
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const file = path.join(dir, entry.name, 'bank.json');
    const bank = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    await writeFile(file, JSON.stringify({ ...bank, DELIVERY_ENDPOINT: `http://127.0.0.1:${port}/${entry.name}` }, null, 2));
  }
  return {
    banksDir: dir,
    arrived: () => keys.size,
    arrivedSince: async (before, expected) => {
      const deadline = performance.now() + DELIVERY_WAIT_MS;
      while (keys.size - before < expected && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      return keys.size - before;
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
