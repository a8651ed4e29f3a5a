// One-off manual check (not committed): a JPKI application in Chromium at 360 px, with screenshots.
import { chromium, devices } from '@playwright/test';
import { act, chooseProviderOutcome, reachIdentityCheck } from './tests/e2e/drivers';

const flow = (process.argv[2] ?? 'general') as 'general' | 'child';
const bank = (process.argv[3] ?? '0177') as '0177';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const context = await browser.newContext({ ...devices['Pixel 7'], viewport: { width: 360, height: 740 } });
const page = await context.newPage();
const shot = (name: string) => page.screenshot({ path: `/work/notes/shots/${flow}-${name}.png`, fullPage: true });
const journey = await reachIdentityCheck(page, bank, flow);
await shot('1-preparation');
await act(journey, 'EkycPreparation', 'START_JPKI');
await page.waitForURL(/oidc-provider\/interaction/);
await shot('2-standin');
await chooseProviderOutcome(journey, 'jpkiOtherPerson');
await page.waitForURL(/ekyc-error/, { timeout: 30_000 });
await shot('3-mismatch');
await act(journey, 'EkycError', 'RETRY');
await act(journey, 'EkycPreparation', 'START_JPKI');
await page.waitForURL(/oidc-provider\/interaction/);
await chooseProviderOutcome(journey, 'jpkiSamePerson');
await page.waitForURL(/complete/, { timeout: 30_000 });
await shot('4-complete');
console.log('complete:', await page.locator('main').innerText());
await browser.close();
