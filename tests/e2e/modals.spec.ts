import { devices, expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_IDENTITY_CHECK_DAY } from '../support/identity-check-day';
import { fetchText } from './support';

/**
 * The landing modals of spec sections 4 and 8, driven by the real operator command
 * (src/cli/operator.ts) handing its commands to a running server over DATA_DIR/operator.sock.
 *
 * Maintenance is global and notifications would cover the landing pages other spec files
 * click through (on every bank), so these tests do not touch the shared server of
 * playwright.config.ts: they start a server of their own (the same `tsx src/server/main.ts`)
 * on a throwaway DATA_DIR and a free port, and stop it at the end. Only a read-only command
 * is sent to the shared server.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

interface CommandResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run operator -- …` as an operator types it, against the server using DATA_DIR. */
async function operator(dataDir: string, ...argv: string[]): Promise<CommandResult> {
  const child = spawn(tsx, ['src/cli/operator.ts', ...argv], {
    cwd: root,
    // PGlite in DATA_DIR (never a DATABASE_URL of the environment): the socket is under test.
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const [exitCode] = (await once(child, 'exit')) as [number | null];
  return { exitCode, stdout, stderr };
}

/** Like operator(), but the command must have gone through the running server and succeeded. */
async function operatorViaServer(dataDir: string, ...argv: string[]): Promise<string> {
  const result = await operator(dataDir, ...argv);
  expect(result.stderr, result.stdout).toContain('(via the running server)');
  expect(result.exitCode, `${result.stdout}\n${result.stderr}`).toBe(0);
  return result.stdout;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return address.port;
}

interface OwnServer {
  port: number;
  dataDir: string;
  url(code: string, pathname: string): string;
  stop(): Promise<void>;
}

/** A second server process, as main.ts runs in production, on its own DATA_DIR and port. */
async function startOwnServer(): Promise<OwnServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kouza-e2e-modals-'));
  const child: ChildProcess = spawn(tsx, ['src/server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      DEFAULT_BANK: '0177',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      IDENTITY_CHECK_METHODS_DAY: TEST_IDENTITY_CHECK_DAY,
      // The private build of a parallel run (E2E_DIST_DIR), as the shared server gets it.
      ...(process.env.E2E_DIST_DIR ? { DIST_DIR: process.env.E2E_DIST_DIR } : {}),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the second server exited with ${child.exitCode}: ${stderr}`);
    const ready = await fetch(`http://127.0.0.1:${port}/bank/logo`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the second server did not start within 60 s: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { port, dataDir, url: (code, pathname) => `http://${code}.localhost:${port}${pathname}`, stop };
}

const bankJson = (code: string) =>
  JSON.parse(readFileSync(path.join(root, 'banks', code, 'bank.json'), 'utf8')) as { links: { serviceIntroduction: string } };

const pad = (n: number) => String(n).padStart(2, '0');
const JST_OFFSET_MS = 9 * 3600_000;

/** An operator's time argument in Japan time, e.g. 2026-12-01T00:00+09:00. */
function operatorTime(date: Date): string {
  const jst = new Date(date.getTime() + JST_OFFSET_MS);
  return `${jst.getUTCFullYear()}-${pad(jst.getUTCMonth() + 1)}-${pad(jst.getUTCDate())}T${pad(jst.getUTCHours())}:${pad(jst.getUTCMinutes())}+09:00`;
}

/** Spec section 8: year/month/day hour:minute, as the Japanese page writes it (2026年12月1日 0:00). */
function modalTime(date: Date): string {
  const jst = new Date(date.getTime() + JST_OFFSET_MS);
  return `${jst.getUTCFullYear()}年${jst.getUTCMonth() + 1}月${jst.getUTCDate()}日 ${jst.getUTCHours()}:${pad(jst.getUTCMinutes())}`;
}

/** Whole minutes from now (operator times have minute precision). */
function minutesFromNow(minutes: number): Date {
  const now = new Date();
  now.setUTCSeconds(0, 0);
  return new Date(now.getTime() + minutes * 60_000);
}

/** A desktop browser: not a phone, so the landing page warns with 'ご注意'. */
async function desktop(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ ...devices['Desktop Chrome'], locale: 'ja-JP', timezoneId: 'Asia/Tokyo' });
}

/**
 * Opens /term and waits until the landing checks are over (the notification call is the last
 * of them on a supported browser), so that "no dialog" is a result and not a page still loading.
 */
async function openTermAfterNotifications(page: Page, url: string, bankCode: string): Promise<void> {
  const notificationsLoaded = page.waitForResponse((response) => response.url().endsWith(`/api/notifications/${bankCode}`));
  await page.goto(url);
  await (await notificationsLoaded).finished();
  // One more frame for React to render what the answer decided.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

test('the operator command reaches the running shared server through its socket', async () => {
  test.skip(Boolean(process.env.DATABASE_URL), 'with DATABASE_URL the command connects directly');
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is set by playwright.config.ts');
  expect(existsSync(path.join(dataDir, 'operator.sock'))).toBe(true);
  // Read-only: notifications here would cover the pages of the other spec files.
  await operatorViaServer(dataDir, 'maintenance', 'list');
});

test.describe('landing modals (a server of their own)', () => {
  test.describe.configure({ mode: 'serial' });

  let server: OwnServer;
  const bank = '0587';
  const otherBank = '0181';
  const notice = `年末年始のATM休止について（${Date.now().toString(36)}）`;

  test.beforeAll(async () => {
    server = await startOwnServer();
    await operatorViaServer(server.dataDir, 'notification', 'add', '--bank', bank, '--contents', notice);
  });
  test.afterAll(async () => {
    await server?.stop();
    // The server removes its socket when it stops.
    if (server) expect(existsSync(path.join(server.dataDir, 'operator.sock'))).toBe(false);
  });

  test("a phone sees its bank's notice, another bank's host does not", async ({ page }) => {
    await openTermAfterNotifications(page, server.url(bank, '/term'), bank);
    const dialog = page.getByRole('dialog', { name: '重要なお知らせ' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('listitem')).toHaveText([notice]);
    await dialog.getByRole('button', { name: '閉じる' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await openTermAfterNotifications(page, server.url(otherBank, '/term'), otherBank);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByText(notice)).toHaveCount(0);
  });

  test('without maintenance in progress a desktop browser gets the browser warning, not the notices', async ({ browser }) => {
    // A window announced for tomorrow: served by the API, but not in progress, so no modal.
    const start = minutesFromNow(24 * 60);
    await operatorViaServer(server.dataDir, 'maintenance', 'add', '--start', operatorTime(start), '--end', operatorTime(minutesFromNow(26 * 60)));
    const context = await desktop(browser);
    try {
      const page = await context.newPage();
      await page.goto(server.url(bank, '/term'));
      const warning = page.getByRole('dialog', { name: 'ご注意' });
      await expect(warning).toBeVisible();
      await expect(warning).toContainText('本サービスはスマートフォン専用のサービスです。');
      await expect(warning.getByRole('button', { name: '閉じる' })).toBeVisible();
      await expect(page.getByRole('dialog')).toHaveCount(1);
      await expect(page.getByRole('dialog', { name: '重要なお知らせ' })).toHaveCount(0);
      await expect(page.getByRole('dialog', { name: 'メンテナンス中' })).toHaveCount(0);
      const announced = JSON.parse(await fetchText(page, '/api/maintenance')) as { startedAt: string };
      expect(new Date(announced.startedAt).getTime()).toBe(start.getTime());
    } finally {
      await context.close();
      await operatorViaServer(server.dataDir, 'maintenance', 'clear');
    }
  });

  test('maintenance in progress shows its modal before the browser warning and the notices; clearing it ends it', async ({
    browser,
    page,
  }) => {
    const start = minutesFromNow(-60);
    const end = minutesFromNow(120);
    const period = `${modalTime(start)} ～ ${modalTime(end)}`;
    const introduction = bankJson(bank).links.serviceIntroduction;
    await operatorViaServer(server.dataDir, 'maintenance', 'add', '--start', operatorTime(start), '--end', operatorTime(end), '--note', 'e2e');
    const context = await desktop(browser);
    try {
      // Desktop: maintenance beats the unsupported-browser warning.
      const desktopPage = await context.newPage();
      await desktopPage.goto(server.url(bank, '/term'));
      const modal = desktopPage.getByRole('dialog', { name: 'メンテナンス中' });
      await expect(modal).toBeVisible();
      await expect(modal).toContainText('ただいまシステムメンテナンスのため、本サービスをご利用いただけません。');
      await expect(modal.getByText(period, { exact: true })).toBeVisible();
      await expect(modal).toContainText('終了時刻が前後する場合がございます');
      await expect(modal.getByRole('link', { name: 'サービス紹介ページへ戻る' })).toHaveAttribute('href', introduction);
      await expect(desktopPage.getByRole('dialog')).toHaveCount(1);
      // Not closable: Escape leaves it open.
      await desktopPage.keyboard.press('Escape');
      await expect(modal).toBeVisible();

      // Phone, on the bank with a notice: maintenance beats the notices too.
      await page.goto(server.url(bank, '/term'));
      await expect(page.getByRole('dialog', { name: 'メンテナンス中' })).toBeVisible();
      await expect(page.getByRole('dialog')).toHaveCount(1);
      await expect(page.getByText(notice)).toHaveCount(0);
    } finally {
      await context.close();
      const cleared = await operatorViaServer(server.dataDir, 'maintenance', 'clear');
      expect(cleared).toContain('Removed 1 maintenance window(s).');
    }

    // Cleared: no maintenance (404), and the phone sees the notice again.
    expect(await page.evaluate(async () => (await fetch('/api/maintenance')).status)).toBe(404);
    await openTermAfterNotifications(page, server.url(bank, '/term'), bank);
    await expect(page.getByRole('dialog', { name: '重要なお知らせ' })).toBeVisible();
  });
});
