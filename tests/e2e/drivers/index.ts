import { expect, type Page } from '@playwright/test';
import { bankUrl, byLabel, groupOf, passPreCheck, readCodeFromOutbox, uniqueMailAddress, type BankCode } from '../support';
import { childApplicants, generalApplicants, PIN } from './applicants';
import { fillChildPersonal, fillOccupation, fillParent, fillPersonal } from './forms';
import { expectShownAsJudged, fillGenericForm, submitFormStep } from './generic-form';
import { DISTANCE_REASON, ownFormStates, ownVariantOf, permittedWorkplaceOf } from './own-variants';
import { stateOf } from '../../../src/domain/forms/field-states';
import { asCameraFile, documentPhoto, unreadableHeic } from './photos';
import type { EventDriver, FlowId, Journey, PageContext, ProviderOutcome, ScreenDrivers } from './types';
import type { FormWithDriver } from './own-forms';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeFlow } from '../../../src/domain/flow/model';
import { resumeSteps } from '../../../src/domain/flow/resume';
import type { FlowConfig, FlowPage } from '../../../src/domain/flow/types';
import { GENERIC_FORM_SCREEN, PIN_SCREEN, type ScreenName } from '../../../src/domain/flow/vocabulary';
import { identityLabels } from '../../../src/server/ekyc/oidc-standin-labels.js';
import { simulatorOutcomeLabels } from '../../../src/server/ekyc/simulator-labels.js';
import type { ProviderMethod } from '../../../src/domain/identity-check-methods';

export type { EventDriver, FlowId, Journey, PageContext, ProviderOutcome, ScreenDrivers } from './types';

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

/** 「戻る」 of a step (the flow's BACK). */
const back: EventDriver = ({ page }) => button(page, '戻る').click();

/** The three (or so) checks a photo preview asks for, all ticked. */
async function tickPhotoChecks(page: Page): Promise<void> {
  const checks = page.getByRole('group', { name: /^確認事項/ }).getByRole('checkbox');
  await expect(checks.first()).toBeVisible();
  for (const check of await checks.all()) await check.check();
}

/** Takes the photo with the capture button's file input, then uploads it from the preview. */
async function captureAndUpload(page: Page, captureLabel: string, file: ReturnType<typeof asCameraFile>, withChecks: boolean): Promise<void> {
  await page.getByLabel(captureLabel, { exact: true }).setInputFiles(file);
  if (withChecks) await tickPhotoChecks(page);
  await button(page, 'この写真でアップロード').click();
}

/**
 * The outcomes as the providers' pages label them: the simulator's (photo ID), and the
 * stand-in OpenID provider's choice of who is on the card (JPKI).
 */
const PROVIDER_OUTCOME_LABELS: Record<ProviderOutcome, string> = {
  ...simulatorOutcomeLabels,
  jpkiSamePerson: identityLabels.self,
  jpkiOtherPerson: identityLabels.other,
};

/** Each provider's page, by the method it checks: where the browser is, and the button that sends the tester's choice back. */
export const PROVIDER_PAGES: Partial<Record<ProviderMethod, { url: RegExp; submit: string }>> = {
  IMAGE_SELFIE_PHOTO_ID: { url: /\/ekyc-simulator\/sessions\/sim_/, submit: '結果を送信してお申込み画面へ戻る' },
  JPKI_SIGNATURE: { url: /\/oidc-provider\/interaction\//, submit: 'この内容で認証してお申込み画面へ戻る' },
};
const providerPages = Object.values(PROVIDER_PAGES);

/**
 * What an applicant does on each screen to send each event of flows/general.json and
 * flows/child.json, keyed by meta.screen and event type. A driver fills what its screen needs
 * with valid data for journey.bank (the child flow's /child/personal with the child's data,
 * /child/parent with the parent's) and presses the button; it waits for its screen to be ready
 * but never checks where the applicant arrives: the caller does.
 */
export const screenDrivers: ScreenDrivers = {
  GeneralTerm: {
    NEXT: async ({ page }) => {
      await passPreCheck(page);
      await button(page, '次へ').click();
    },
  },
  ChildBeforeCheck: {
    NEXT: async ({ page }) => {
      await page.getByLabel('上記の内容を確認しました').check();
      await page.getByLabel('必要書類を確認しました').check();
      await button(page, '次へ').click();
    },
  },
  ChildTerm: {
    NEXT: async ({ page }) => {
      const question = (n: number) => page.getByRole('group', { name: new RegExp(`^Q${n}\\.`) });
      await question(1).getByText('はい', { exact: true }).click();
      await question(2).getByText('同意する', { exact: true }).click();
      await question(3).getByText('同意する', { exact: true }).click();
      await page.getByLabel('通帳が発行されないことを確認しました').check();
      await page.getByLabel('印鑑の登録を行わないことを確認しました').check();
      await button(page, '次へ').click();
    },
  },
  Verification: {
    CODE_SENT: async (journey) => {
      const mailAddress = uniqueMailAddress(`${journey.flow}-${journey.bank}`);
      await journey.page.getByLabel('メールアドレス').fill(mailAddress);
      await button(journey.page, '認証コードを送信する').click();
      // Sent once the code step shows: a BACK pressed before would leave the address step.
      await expect(journey.page.getByLabel('認証コード')).toBeVisible();
      journey.memo.mailAddress = mailAddress;
    },
    NEXT: async (journey) => {
      const { mailAddress } = journey.memo;
      if (!mailAddress) throw new Error('Verification NEXT: no address was sent a code (CODE_SENT first)');
      const code = await readCodeFromOutbox(journey.page, mailAddress);
      await journey.page.getByLabel('認証コード').fill(code);
      await button(journey.page, '認証する').click();
    },
    // The code step goes back to the address; the address step (child flow) back to the terms.
    BACK: ({ page }) => page.getByRole('button', { name: 'メールアドレスの入力に戻る' }).or(button(page, '戻る')).click(),
  },
  // The generic form step: its NEXT by the page's form (formDrivers, else the schema-driven filler).
  [GENERIC_FORM_SCREEN]: {
    NEXT: async (journey, context) => {
      const { form, visit } = context;
      if (!form) throw new Error(`${GENERIC_FORM_SCREEN} NEXT: the page's form (meta.form) is needed`);
      const own = Object.hasOwn(formDrivers, form) ? formDrivers[form as FormWithDriver] : undefined;
      if (own) await own(journey, context);
      else await fillGenericForm(journey.page, form, { flowId: journey.flow, applicationType: journey.flow === 'child' ? 'CHILD' : 'GENERAL', bank: journey.bank, visit: visit ?? 0 });
    },
    BACK: back,
  },
  Confirmation: {
    NEXT: async ({ page }) => {
      await page.getByLabel('ご住所が本人確認書類の住所と一致していることを確認しました').check();
      await button(page, '申し込む').click();
    },
    BACK: back,
  },
  Pin: {
    NEXT: async ({ page }) => {
      await page.getByLabel(/^暗証番号必須$/).fill(PIN);
      const confirmation = page.getByLabel(/^暗証番号（確認用）/);
      await confirmation.fill(PIN);
      await confirmation.blur();
      // Enabled once the PIN passed the rules and was encrypted.
      await button(page, '設定する').click();
      await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
    },
    BACK: back,
  },
  ChildEkycPreparation: {
    NEXT: ({ page }) => button(page, '撮影をはじめる').click(),
  },
  IdentificationDocuments: {
    NEXT: async ({ page }) => {
      await captureAndUpload(page, 'マイナンバーカードを撮影する', asCameraFile(await documentPhoto(page, 'card'), 'IMG_0101.jpg'), false);
    },
    BACK: back,
  },
  SupplementaryDocuments: {
    // A 12 MP photo, so every child journey has the page compress one upload.
    NEXT: async ({ page, bank }) => {
      const document = childApplicants[bank].supplementary;
      await page.getByLabel(document, { exact: true }).check();
      await captureAndUpload(page, `${document}を撮影する`, asCameraFile(await documentPhoto(page, 'paper'), 'IMG_0102.jpg'), true);
    },
    BACK: back,
  },
  EkycPreparation: {
    // Arriving at the provider is the caller's to check (chooseProviderOutcome waits for it).
    START_EKYC: ({ page }) => button(page, '書類の撮影で本人確認へ進む').click(),
    START_JPKI: ({ page }) => button(page, 'マイナンバーカードで本人確認へ進む').click(),
  },
  Supplement: {
    NEXT: async ({ page }) => {
      await captureAndUpload(page, '現住所確認書類を撮影する', asCameraFile(await documentPhoto(page, 'paper')), true);
    },
    // A photo the page cannot read (HEIC on a browser that cannot decode it): the upload fails.
    FAIL: async ({ page }) => {
      await captureAndUpload(page, '現住所確認書類を撮影する', unreadableHeic(), true);
    },
  },
  SupplementError: {
    RETRY: ({ page }) => button(page, 'もう一度アップロードする').click(),
  },
  EkycError: {
    RETRY: ({ page }) => button(page, '本人確認をやり直す').click(),
  },
  SystemError: {
    RESTART: ({ page }) => button(page, '再申込みへ').click(),
  },
};

/**
 * The forms of the generic form step whose answers matter to the journeys (chosen by bank, as
 * the summary checks expect them, and varied by the journey: own-variants.ts), by meta.form;
 * any other form is answered from its schema. Each checks that the page shows what the
 * engine's conditions make of its answers, then presses 次へ.
 */
async function personalStep(journey: Journey, context: PageContext): Promise<void> {
  const { page, bank, flow } = journey;
  const { journeyIndex } = context;
  const variant = ownVariantOf('personal', journeyIndex);
  const { states } = ownFormStates('personal', flow, bank, journeyIndex);
  const reason = stateOf(states, 'distanceTransactionReason').asked ? DISTANCE_REASON : undefined;
  if (flow === 'child') await fillChildPersonal(page, childApplicants[bank].child, variant, reason);
  else await fillPersonal(page, generalApplicants[bank].person, variant, reason);
  await expectPageAsJudged(journey, context);
  await button(page, '次へ').click();
}

/** Each form of the page shows exactly the fields the engine's conditions ask of the journey's answers. */
async function expectPageAsJudged({ page, bank, flow }: Journey, { form, pageForms, journeyIndex }: PageContext): Promise<void> {
  // A hand-written test names the page's first form only: the flow says which forms the page asks.
  const forms = pageForms ?? flowModelOf(flow).pages.find((each) => each.forms[0] === form)?.forms ?? (form === undefined ? [] : [form]);
  for (const each of forms) {
    const { schema, states } = ownFormStates(each, flow, bank, journeyIndex);
    // On a page of several forms each form's control ids start with its name (FormStep.tsx).
    await expectShownAsJudged(page, each, schema, states, forms.length > 1 ? each : 'root');
  }
}

/** /workplace: the applicant's occupation and workplace, or the variant's (a workplace code applied, and an account held there). */
async function workplaceStep(journey: Journey, context: PageContext): Promise<void> {
  const { page, bank } = journey;
  const variant = ownVariantOf('workplace', context.journeyIndex);
  const { occupation, workplace } = generalApplicants[bank];
  if (variant.occupation) await fillOccupation(page, variant.occupation.name, undefined, variant.occupation.other);
  else await fillOccupation(page, occupation, workplace);
  if (variant.appliedWorkplace) {
    const code = byLabel(page, '勤務先コード');
    // Shown again after 戻る, the code is applied already.
    if ((await code.getAttribute('readonly')) === null) {
      await code.fill(permittedWorkplaceOf(bank).code);
      await page.getByRole('button', { name: /^適用\s*（勤務先コード）$/ }).click();
      await expect(code).toHaveAttribute('readonly', '');
    }
    const account = groupOf(page, 'お持ちの口座がありますか');
    await account.getByText('はい', { exact: true }).click();
    await account.getByLabel(/^店番/).fill(variant.appliedWorkplace.branch);
    await account.getByLabel(/^口座番号/).fill(variant.appliedWorkplace.account);
  }
  await expectPageAsJudged(journey, context);
  await button(page, '次へ').click();
}

const formDrivers: Record<FormWithDriver, EventDriver> = {
  personal: personalStep,
  workplace: workplaceStep,
  // /child/parent: the parent's data and workplace (parent, then parent-workplace) under one 次へ.
  parent: async (journey, context) => {
    await fillParent(journey.page, childApplicants[journey.bank].parent, ownVariantOf('parent', context.journeyIndex));
    await expectPageAsJudged(journey, context);
    await button(journey.page, '次へ').click();
  },
  branch: async ({ page, bank, flow }) => {
    const index = (flow === 'child' ? childApplicants : generalApplicants)[bank].branchIndex;
    // The whole card is the tap target.
    await groupOf(page, 'お取引店').locator('label').nth(index).click();
    await submitFormStep(page);
  },
  sealLess: async ({ page, bank }) => {
    const choice = generalApplicants[bank].sealLess ? '印鑑を登録しない' : '印鑑を登録する（お届け印の登録手続きは別途郵送でご案内します）';
    await groupOf(page, 'お届け印の登録').getByText(choice, { exact: true }).click();
    await submitFormStep(page);
  },
};

/**
 * On the provider's page (the simulator after START_EKYC, the stand-in OpenID provider after
 * START_JPKI): the outcome, then back to the application. An outcome the page does not offer
 * (another method's) fails here, naming its label.
 */
export async function chooseProviderOutcome(journey: Journey, outcome: ProviderOutcome): Promise<void> {
  const { page } = journey;
  await page.waitForURL((url) => providerPages.some((p) => p?.url.test(url.pathname)));
  const at = providerPages.find((p) => p?.url.test(new URL(page.url()).pathname));
  await page.getByLabel(PROVIDER_OUTCOME_LABELS[outcome], { exact: true }).check();
  await page.getByRole('button', { name: at?.submit ?? '', exact: true }).click();
}

/** Sends one event from one screen, on a page asking `form` (throws for a pair no driver knows). */
export async function act(journey: Journey, screen: string, event: string, form?: string): Promise<void> {
  const driver = screenDrivers[screen]?.[event];
  if (!driver) throw new Error(`no screen driver for ${screen} ${event}`);
  const context: PageContext = form === undefined ? {} : { form };
  await driver(journey, context);
}

export const LANDING_PATHS: Record<FlowId, string> = { general: '/term', child: '/child/before-check' };

/** Opens the flow's landing page (with a bank link's query, e.g. '?invitation=FBK001'). */
export async function openJourney(page: Page, bank: BankCode, flow: FlowId, query = ''): Promise<Journey> {
  await page.goto(bankUrl(bank, `${LANDING_PATHS[flow]}${query}`));
  return { page, bank, flow, memo: {} };
}

/**
 * One step of a hand-written journey: the event sent on a screen and the path it leads to, with
 * the page's form for the generic form step (e.g. ['FormStep', 'NEXT', '/seal-less', 'branch']).
 */
export type Step = readonly [screen: string, event: string, arrival: string, form?: string];

/** Sends each event in turn and checks the path reached after it. */
export async function walk(journey: Journey, steps: readonly Step[]): Promise<void> {
  for (const [screen, event, arrival, form] of steps) {
    await act(journey, screen, event, form);
    await expect(journey.page).toHaveURL(bankUrl(journey.bank, arrival));
  }
}

/** Landing, e-mail address and code: the way to the first form of either flow. */
export const TO_PERSONAL: Record<FlowId, readonly Step[]> = {
  general: [
    ['GeneralTerm', 'NEXT', '/verification'],
    ['Verification', 'CODE_SENT', '/verification'],
    ['Verification', 'NEXT', '/personal'],
  ],
  child: [
    ['ChildBeforeCheck', 'NEXT', '/child/term'],
    ['ChildTerm', 'NEXT', '/child/verification'],
    ['Verification', 'CODE_SENT', '/child/verification'],
    ['Verification', 'NEXT', '/child/personal'],
  ],
};

/** From the landing page to the form on /personal (or /child/personal), ready to be filled. */
export async function reachPersonal(page: Page, bank: BankCode = '0177', flow: FlowId = 'general', landingQuery = ''): Promise<Journey> {
  const journey = await openJourney(page, bank, flow, landingQuery);
  await walk(journey, TO_PERSONAL[flow]);
  await expect(button(page, '次へ')).toBeVisible();
  return journey;
}

/** The flow a server runs: the one under test (E2E_FLOWS_DIR, else the repository's flows/), or that of `dir`. */
export function flowModelOf(flow: FlowId, dir = process.env.E2E_FLOWS_DIR ?? new URL('../../../flows/', import.meta.url).pathname) {
  return describeFlow(JSON.parse(readFileSync(join(dir, `${flow}.json`), 'utf8')) as FlowConfig);
}

/** The step counter a page shows in a flow (its meta.step of meta.totalSteps). */
export function stepCounterOf(flow: FlowId, path: string, dir?: string): { step: number; of: number } {
  const model = flowModelOf(flow, dir);
  const page = model.pageByPath.get(path);
  if (page?.step === undefined) throw new Error(`flows/${flow}.json: no step counter on ${path}`);
  return { step: page.step, of: model.config.meta.totalSteps };
}

/** The step counter's text on a page of a flow: "ステップ 7/7". */
export function stepTextOf(flow: FlowId, path: string, dir?: string): string {
  const { step, of } = stepCounterOf(flow, path, dir);
  return `ステップ ${step}/${of}`;
}

/**
 * From the page the applicant is on, NEXT page after page along the flow (each answered as the
 * drivers answer it) until `path`: the way to a page, whatever steps a product owner put before it.
 */
export async function walkTo(journey: Journey, from: string, path: string, dir?: string): Promise<void> {
  const along = resumeSteps(flowModelOf(journey.flow, dir));
  let index = along.findIndex((page) => page.path === from);
  if (index < 0) throw new Error(`flows/${journey.flow}.json: ${from} is no step after the e-mail check`);
  while ((along[index] as FlowPage).path !== path) {
    const page = along[index] as FlowPage;
    const next = along[index + 1];
    if (!next) throw new Error(`flows/${journey.flow}.json: ${path} does not follow ${from} along NEXT`);
    await act(journey, page.screen, 'NEXT', page.screen === GENERIC_FORM_SCREEN ? page.forms[0] : undefined);
    await expect(journey.page).toHaveURL(new RegExp(`${next.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    index += 1;
  }
}

/**
 * The steps along NEXT from the page after the e-mail check to the first page of screen
 * `until`, read from the flow: a step a product owner adds on the way is walked too (answered
 * from its schema when it has no driver of its own).
 */
function stepsToScreen(flow: FlowId, from: 'first step' | ScreenName, until: ScreenName): Step[] {
  const model = flowModelOf(flow);
  const along = resumeSteps(model);
  const start = from === 'first step' ? 0 : along.findIndex((page) => page.screen === from);
  const steps: Step[] = [];
  for (let index = start; index >= 0 && index < along.length - 1; index += 1) {
    const page = along[index] as FlowPage;
    const next = along[index + 1] as FlowPage;
    steps.push(page.forms[0] === undefined || page.screen !== GENERIC_FORM_SCREEN ? [page.screen, 'NEXT', next.path] : [page.screen, 'NEXT', next.path, page.forms[0]]);
    if (next.screen === until) return steps;
  }
  throw new Error(`flows/${flow}.json: no page of screen ${until} along NEXT`);
}

/** From the first form (/personal, /child/personal) to the PIN page, with the bank's applicant of each flow. */
export const TO_PIN: Record<FlowId, readonly Step[]> = {
  general: stepsToScreen('general', 'first step', PIN_SCREEN),
  child: stepsToScreen('child', 'first step', PIN_SCREEN),
};

/** From the PIN page to the page that starts the applicant's (the parent's) identity check: the child's documents first. */
export const TO_IDENTITY_CHECK: Record<FlowId, readonly Step[]> = {
  general: stepsToScreen('general', PIN_SCREEN, 'EkycPreparation'),
  child: stepsToScreen('child', PIN_SCREEN, 'EkycPreparation'),
};

/** From the landing page to the page choosing the identity check (/ekyc-preparation, /child/parent-ekyc-preparation). */
export async function reachIdentityCheck(page: Page, bank: BankCode, flow: FlowId): Promise<Journey> {
  const journey = await reachPersonal(page, bank, flow);
  await walk(journey, [...TO_PIN[flow], ...TO_IDENTITY_CHECK[flow]]);
  return journey;
}
