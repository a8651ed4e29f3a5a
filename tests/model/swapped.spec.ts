import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { formatProblem } from '../../src/flow-tools/lint';
import { checkFlowFiles, repositoryRoot } from '../../src/server/flows/check';
import { loadFlows } from './flows';
import { planFlow } from './plan';
import { journeyTitle, runJourney } from './journey';
import { act, chooseProviderOutcome, walkTo, type Journey } from '../e2e/drivers';
import { formStepSubmit, submitFormStep } from '../e2e/drivers/generic-form';
import { exampleForm, NEW_FORM, NEW_FORM_TEXTS, NEW_STEP, NEW_STEPS, TRIAL_FORM, TRIAL_TEXTS } from './new-step';
import { EDITED_COPY_FIRST_BANK, SWAPPED_STEPS } from './swap';

/**
 * Editing a flow without code: tests/playwright.config.ts copies the flow and schema folders
 * with seal-less moved before branch in the general flow (./swap.ts: JSON only, NEXT/BACK and
 * step counters) and a new form step after seal-less (./new-step.ts: a new schema and a new
 * state), builds the page from the copied schemas and starts a second server with FLOWS_DIR
 * and SCHEMAS_DIR on the copies. The journeys generated from the copied machine run against
 * it, and the new step is checked from the page to the completed application, with no code
 * changed anywhere.
 */
const dir = process.env.E2E_SWAPPED_FLOWS_DIR;
const schemasDir = process.env.E2E_SWAPPED_SCHEMAS_DIR;
const setupError = process.env.E2E_SWAPPED_FLOWS_ERROR;
const label = `${SWAPPED_STEPS.flow} (${SWAPPED_STEPS.second} before ${SWAPPED_STEPS.first})`;

test('the edited copy passes the flow lint', () => {
  expect(setupError, 'writing the edited copy of the flows').toBeUndefined();
  const result = checkFlowFiles([], repositoryRoot, dir, schemasDir);
  expect(result.problems.map(formatProblem)).toEqual([]);
  const general = result.flows.find((flow) => flow.id === SWAPPED_STEPS.flow);
  // The edit is there: the step before the first swapped one now leads to the second.
  expect(general?.states[SWAPPED_STEPS.second]?.meta?.step).toBeLessThan(general?.states[SWAPPED_STEPS.first]?.meta?.step ?? 0);
  for (const step of NEW_STEPS) expect(general?.states[step.state]?.meta?.form).toBe(step.form);
  // What the product owner wrote: one flow file changed and the guide's forms added (unless the product has them), nothing else.
  const differs = (copy: string, shipped: string) => !existsSync(shipped) || JSON.stringify(JSON.parse(readFileSync(copy, 'utf8'))) !== JSON.stringify(JSON.parse(readFileSync(shipped, 'utf8')));
  const changed = (copy: string, shipped: string) => readdirSync(copy).filter((file) => file.endsWith('.json') && differs(join(copy, file), join(shipped, file)));
  const added = NEW_STEPS.map((step) => `${step.form}.schema.json`).filter((file) => {
    const shipped = join(repositoryRoot, 'schemas', file);
    return !existsSync(shipped) || JSON.stringify(JSON.parse(readFileSync(shipped, 'utf8'))) !== JSON.stringify(exampleForm(file.replace('.schema.json', '')));
  });
  expect([...changed(dir ?? '', join(repositoryRoot, 'flows')), ...changed(schemasDir ?? '', join(repositoryRoot, 'schemas'))].sort()).toEqual([`${SWAPPED_STEPS.flow}.json`, ...added].sort());
});

/** From the term page through the e-mail check to /personal, as every application begins. */
async function startApplication(journey: Journey, baseURL: string | undefined): Promise<void> {
  await journey.page.goto(`${baseURL ?? ''}/term`);
  for (const [screen, event] of [
    ['GeneralTerm', 'NEXT'],
    ['Verification', 'CODE_SENT'],
    ['Verification', 'NEXT'],
  ] as const) {
    await act(journey, screen, event);
  }
}

/** The applicant's own session token (the page keeps it in sessionStorage). */
async function tokenOf(page: Page): Promise<string> {
  const token = await page.evaluate(() => sessionStorage.getItem('authenticationToken'));
  if (!token) throw new Error('no session token on the page');
  return token;
}

test('the new form step: asked, refused with its own message on the page and by the server, shown and kept to the end', async ({ page, baseURL }) => {
  test.skip(!dir, 'no edited copy');
  const journey: Journey = { page, bank: '0177', flow: 'general', memo: {} };
  // Called from the page itself (same origin, the browser's own fetch): Node cannot resolve 0177.localhost.
  const call = (method: string, path: string, token: string, body?: unknown) =>
    page.evaluate(
      async ({ method, path, token, body }) => {
        const response = await fetch(`/api${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: response.status, json: (await response.json()) as unknown };
      },
      { method, path, token, body },
    );
  const stored = async (token: string) =>
    (await call('GET', '/applications', token)).json as { application: Record<string, unknown>; forms: Record<string, Record<string, unknown>> };
  await startApplication(journey, baseURL);
  // Along the copy's flow to the new step, whatever comes before it.
  await walkTo(journey, '/personal', NEW_STEP.path, dir);
  await expect(page.getByRole('heading', { level: 1, name: NEW_FORM_TEXTS.title })).toBeVisible();

  // Only spaces in the text: the form's own message at the field, which takes the focus.
  const time = page.getByLabel(new RegExp(`^${NEW_FORM_TEXTS.timeTitle}`));
  const note = page.getByLabel(new RegExp(`^${NEW_FORM_TEXTS.noteTitle}`));
  await time.selectOption({ label: NEW_FORM_TEXTS.times[1].title });
  await note.fill('　 ');
  await submitFormStep(page);
  await expect(page.getByText(NEW_FORM_TEXTS.noteRequired)).toBeVisible();
  await expect(note).toBeFocused();
  await expect(page).toHaveURL(new RegExp(`${NEW_STEP.path}$`));

  // The server says the same of the same answers.
  const token = await tokenOf(page);
  const refused = await call('POST', '/applications/contact-preference', token, { contactTime: NEW_FORM_TEXTS.times[1].value, contactNote: '　 ' });
  expect(refused.status).toBe(400);
  expect(refused.json).toEqual({ message: NEW_FORM_TEXTS.noteRequired, errors: [{ field: 'contactNote', message: NEW_FORM_TEXTS.noteRequired }] });

  await note.fill('夕方以降にお願いします');
  await submitFormStep(page);
  await expect(page).not.toHaveURL(new RegExp(`${NEW_STEP.path}$`));
  await walkTo(journey, new URL(page.url()).pathname, '/confirmation', dir);
  const section = page.getByRole('region', { name: NEW_FORM_TEXTS.title });
  await expect(section.getByText(NEW_FORM_TEXTS.times[1].title, { exact: true })).toBeVisible();
  await expect(section.getByText('夕方以降にお願いします', { exact: true })).toBeVisible();
  const answers = { contactTime: NEW_FORM_TEXTS.times[1].value, contactNote: '夕方以降にお願いします' };
  expect((await stored(token)).forms[NEW_FORM]).toEqual(answers);

  await act(journey, 'Confirmation', 'NEXT');
  await act(journey, 'Pin', 'NEXT');
  await act(journey, 'EkycPreparation', 'START_EKYC');
  await chooseProviderOutcome(journey, 'approve');
  await expect(page).toHaveURL(/\/complete$/, { timeout: 30_000 });
  const completed = await stored(token);
  expect(completed.application.applicationNumber).toMatch(/^0177-\d{6}-\d{6}$/);
  expect(completed.application).toMatchObject(answers);
  expect(completed.forms[NEW_FORM]).toEqual(answers);
});

test('the conditions example: a detail asked for two of three options, and a declaration to tick, alike on the page and at the server', async ({ page, baseURL }) => {
  test.skip(!dir, 'no edited copy');
  const journey: Journey = { page, bank: '0177', flow: 'general', memo: {} };
  await startApplication(journey, baseURL);
  const trialPath = NEW_STEPS.find((step) => step.form === TRIAL_FORM)?.path ?? '';
  await walkTo(journey, '/personal', trialPath, dir);
  await expect(page.getByRole('heading', { level: 1, name: TRIAL_TEXTS.title })).toBeVisible();
  const kinds = page.getByRole('group', { name: new RegExp(`^${TRIAL_TEXTS.kindTitle}`) });
  const detail = page.getByLabel(new RegExp(`^${TRIAL_TEXTS.detailTitle}`));
  const declaration = page.getByRole('checkbox', { name: new RegExp(`^${TRIAL_TEXTS.declarationTitle}`) });
  // 次へ, or 「入力内容を確認する」 where the product has put the step last before the confirmation.
  const next = formStepSubmit(page);

  // Before a choice the detail is not asked; the declaration says it must be ticked.
  await expect(detail).toHaveCount(0);
  await expect(declaration).toHaveAccessibleName(new RegExp(`^${TRIAL_TEXTS.declarationTitle}\\s?必須$`));
  await next.click();
  await expect(page.getByText(TRIAL_TEXTS.declarationRequired)).toBeVisible();

  // One of the two options that ask it: the detail is asked, marked 必須, and its message is the form's, at the field.
  await kinds.getByText(TRIAL_TEXTS.kinds[1].title, { exact: true }).click();
  await expect(page.getByLabel(`${TRIAL_TEXTS.detailTitle}必須`)).toBeVisible();
  await expect(detail).toHaveAttribute('maxlength', '30');
  await declaration.check();
  await next.click();
  await expect(page.getByText(TRIAL_TEXTS.detailRequired)).toBeVisible();
  await expect(detail).toBeFocused();

  // The server says exactly the same of the same answers.
  const token = await tokenOf(page);
  const post = (body: unknown) =>
    page.evaluate(
      async ({ path, token, body }) => {
        const response = await fetch(`/api${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return { status: response.status, json: (await response.json()) as unknown };
      },
      { path: TRIAL_TEXTS.post, token, body },
    );
  expect(await post({ tradeKind: TRIAL_TEXTS.kinds[1].value, declaration: true })).toEqual({
    status: 400,
    json: { message: TRIAL_TEXTS.detailRequired, errors: [{ field: 'tradeDetail', message: TRIAL_TEXTS.detailRequired }] },
  });
  expect(await post({ tradeKind: TRIAL_TEXTS.kinds[2].value })).toEqual({
    status: 400,
    json: { message: TRIAL_TEXTS.declarationRequired, errors: [{ field: 'declaration', message: TRIAL_TEXTS.declarationRequired }] },
  });

  // The third option does not ask it: the applicant goes on without it, and the server stores none.
  await detail.fill('株式会社テスト');
  await kinds.getByText(TRIAL_TEXTS.kinds[2].title, { exact: true }).click();
  await expect(detail).toHaveCount(0);
  await next.click();
  await expect(page).not.toHaveURL(new RegExp(`${trialPath}$`));
  const stored = await page.evaluate(async (token) => (await (await fetch('/api/applications', { headers: { authorization: `Bearer ${token}` } })).json()) as { forms: Record<string, unknown> }, token);
  expect(stored.forms[TRIAL_FORM]).toEqual({ tradeKind: TRIAL_TEXTS.kinds[2].value, declaration: true });
  await walkTo(journey, new URL(page.url()).pathname, '/confirmation', dir);
  // A field never asked is not on the confirmation page.
  const section = page.getByRole('region', { name: TRIAL_TEXTS.title });
  await expect(section.getByText(TRIAL_TEXTS.kinds[2].title, { exact: true })).toBeVisible();
  await expect(section.getByText(TRIAL_TEXTS.detailTitle)).toHaveCount(0);
});

if (dir) {
  const flows = loadFlows(dir, schemasDir);
  const plans = flows.filter((flow) => flow.id === SWAPPED_STEPS.flow).map((flow) => planFlow(flow, EDITED_COPY_FIRST_BANK));
  for (const plan of plans) {
    plan.paths.forEach((path, index) => {
      const bank = plan.banks[index] ?? '0177';
      test(journeyTitle(label, plan, path), async ({ page, baseURL }) => {
        await runJourney(page, { plan, path, flows, bank, baseURL: baseURL ?? '' });
      });
    });
  }
}
