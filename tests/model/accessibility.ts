import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * Issue 14: every screen and modal the generated journeys reach is checked by axe-core against
 * the WCAG 2.x A and AA rules (2.0, 2.1 and 2.2). Each screen once per worker (per path, bank
 * and open dialog), so that the journeys' many visits cost one check each.
 */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

const checked = new Set<string>();

export interface Violation {
  screen: string;
  rule: string;
  impact: string | null;
  targets: string[];
}

/** The violations of the page as it stands, unless this screen was checked already. */
export async function accessibilityViolations(page: Page, screen: string): Promise<Violation[]> {
  const dialogOpen = (await page.locator('[role="dialog"], [role="alertdialog"]').count()) > 0;
  const key = `${screen}${dialogOpen ? ' (dialog open)' : ''}`;
  if (checked.has(key)) return [];
  checked.add(key);
  const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return result.violations.map((violation) => ({
    screen: key,
    rule: violation.id,
    impact: violation.impact ?? null,
    targets: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')),
  }));
}
