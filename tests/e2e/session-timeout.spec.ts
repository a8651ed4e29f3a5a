import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { messages } from '../../src/domain/messages';
import { SESSION_ACTIVITY_AGE_HEADER } from '../../src/domain/session-activity';
import { WCAG_TAGS } from '../model/accessibility';
import { reachPersonal } from './drivers';
import { bankUrl, byLabel } from './support';

/**
 * Issue 14, WCAG 2.2.1: two minutes before a session's 30 idle minutes run out, a dialog offers
 * 「延長する」; at the end the applicant lands on the session error page. The page's clock is
 * moved by Playwright (the server's real values stay): the extension is a real request.
 */
test('the timeout warning appears, is extended without losing what was typed, and expires', async ({ page }) => {
  await page.clock.install();
  await reachPersonal(page, '0177', 'general');
  await byLabel(page, 'お名前（姓）').fill('福岡');
  // Leaving the name asks the server for its furigana. The session counts from the activity the
  // server last recorded: this answer's, or (a lookup moments after a check, ADR 0042) the
  // check's, `age` milliseconds before it.
  const furigana = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/furigana');
  await byLabel(page, 'お名前（名）').focus();
  const age = Number((await furigana).headers()[SESSION_ACTIVITY_AGE_HEADER] ?? 0);
  await expect(byLabel(page, 'フリガナ（セイ）')).not.toHaveValue('');

  // Five seconds before the warning is due (28 minutes after the activity), then ten after.
  await page.clock.fastForward(28 * 60_000 - age - 5_000);
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await page.clock.fastForward(10_000);
  const dialog = page.getByRole('alertdialog', { name: 'まもなく有効期限が切れます' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('でお手続きの有効期限が切れます');
  await expect(dialog).toBeFocused();
  // WCAG 2.x A and AA with the dialog open (as the journeys check every screen).
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  expect(violations.map((violation) => violation.id)).toEqual([]);
  // Tab stays inside the dialog.
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: '延長する' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: '延長する' })).toBeFocused();

  const extended = page.waitForResponse((response) => response.url().endsWith('/api/session/extend') && response.status() === 204);
  await dialog.getByRole('button', { name: '延長する' }).click();
  await extended;
  await expect(dialog).toBeHidden();
  await expect(byLabel(page, 'お名前（姓）')).toHaveValue('福岡');

  await page.clock.fastForward('28:01');
  await expect(dialog).toBeVisible();
  await page.clock.fastForward('02:00');
  await expect(page).toHaveURL(bankUrl('0177', '/error?id=1'));
  await expect(page.getByText(messages.unauthorized)).toBeVisible();
  // Offered to resume, not only to start again (ADR 0030; the resume itself: resume.spec.ts).
  await page.getByRole('link', { name: '申込みを再開する' }).click();
  await expect(page).toHaveURL(bankUrl('0177', '/verification'));
  await expect(page.getByText('認証後、前回の続きからお手続きいただけます。')).toBeVisible();
});
