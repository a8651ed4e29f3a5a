import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import type { BankConfig } from '../../../src/domain/bank/types';
import { listedOptionsOf } from '../../../src/domain/forms/answers';
import { formFor } from '../../../src/domain/forms/flow-forms';
import { isRecord, OPTIONS_KEYWORD, uiSchemaOf, widgetOf, type ApplicationTypeName, type FormProperty, type FormSchema } from '../../../src/domain/forms/format';
import { resolvedFormSchema } from '../../../src/domain/forms/resolve';
import { fieldOrderOf } from '../../../src/domain/forms/order';
import type { FormRuleContext } from '../../../src/domain/rules/registry';
import { conditionsOfForm, sampleAnswers, variantOfVisit, type Variant } from '../../../src/flow-tools/samples';
import { stateOf, type FieldStates } from '../../../src/domain/forms/field-states';
import { groupOf } from '../support';

/**
 * Any form step without a driver of its own, filled from its schema alone as the flow asks it
 * (its overlay in x-flows): the sample answers of src/flow-tools/samples.ts, the variant of the
 * visit deciding which way its conditions go. Each field the answers ask is answered through
 * its widget, and each field they do not ask is checked not to be on the page. The schemas are
 * those of the server under test (E2E_SCHEMAS_DIR, else the repository's schemas/).
 */
const schemasDir = () => process.env.E2E_SCHEMAS_DIR ?? new URL('../../../schemas/', import.meta.url).pathname;

/** The form file as the page and the server read it. */
export function formSchemaOf(form: string): FormSchema {
  return resolvedFormSchema(JSON.parse(readFileSync(join(schemasDir(), `${form}.schema.json`), 'utf8')) as Record<string, unknown>, form) as FormSchema;
}

/** What the samples read of the application: the bank's settings, the applicant's type, today. */
export function sampleContextOf(bank: string, applicationType: ApplicationTypeName): FormRuleContext {
  const config = JSON.parse(readFileSync(new URL(`../../../banks/${bank}/bank.json`, import.meta.url), 'utf8')) as BankConfig;
  return {
    applicationType,
    bank: { code: bank, distanceTransactionReasonRequired: config.distanceTransactionReasonRequired ?? false, homePrefecture: config.homePrefecture, UTILIZATION_PURPOSE_LIST: config.UTILIZATION_PURPOSE_LIST },
    today: new Date(),
    saved: {},
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The field's label as the page writes it: x-ui's ui:title, else the schema's title. */
function titleOf(form: FormSchema, field: string, property: FormProperty): string {
  const entry = uiSchemaOf(form)[field];
  const own = isRecord(entry) && typeof entry['ui:title'] === 'string' ? entry['ui:title'] : undefined;
  return own ?? property.title ?? field;
}

/** A control by its label, which reads "<title>必須" or "<title>任意": the title starts it. */
const byTitle = (page: Page, title: string): Locator => page.getByLabel(new RegExp(`^${escapeRegExp(title)}`));

/** The label the page gives a value of a field with listed options. */
function labelOfOption(form: FormSchema, field: string, property: FormProperty, value: unknown): string {
  const entry = uiSchemaOf(form)[field];
  const options = listedOptionsOf(property.type === 'array' && property.items ? property.items : property, isRecord(entry) ? entry['ui:enumNames'] : undefined);
  const found = options.find((option) => Object.is(option.value, value));
  if (!found) throw new Error(`${field}: no option ${JSON.stringify(value)}`);
  return found.label;
}

const CARDS = new Set(['RadioCardsWidget', 'radio']);

/** Gives one field its sample answer through its widget. */
async function answer(page: Page, form: FormSchema, field: string, property: FormProperty, value: unknown): Promise<void> {
  const title = titleOf(form, field, property);
  const widget = widgetOf(form, field);
  if (widget === 'hidden' || widget === 'FixedAnswerWidget') return;
  if (property[OPTIONS_KEYWORD] !== undefined) {
    // Bank data: the first choice the page offers (its values are the bank's).
    if (widget === 'ChoiceSelectWidget') await byTitle(page, title).selectOption({ index: 1 });
    else await groupOf(page, title).locator('label').first().click();
    return;
  }
  const listed = listedOptionsOf(property.type === 'array' && property.items ? property.items : property);
  if (property.type === 'boolean' && (listed.length < 2 || property.const !== undefined) && !CARDS.has(widget ?? '')) {
    const box = page.getByRole('checkbox', { name: new RegExp(`^${escapeRegExp(title)}`) });
    if (value === true) await box.check();
    else await box.uncheck();
    return;
  }
  if (property.type === 'array') {
    for (const item of Array.isArray(value) ? value : []) await page.getByLabel(labelOfOption(form, field, property, item), { exact: true }).check();
    return;
  }
  if (listed.length > 0) {
    const label = labelOfOption(form, field, property, value);
    if (property.type === 'boolean' || CARDS.has(widget ?? '')) await groupOf(page, title).getByText(label, { exact: true }).click();
    else await byTitle(page, title).selectOption({ label });
    return;
  }
  if (typeof value === 'string') {
    await byTitle(page, title).fill(value);
    return;
  }
  throw new Error(`the journeys' filler cannot answer "${field}" (${widget ?? String(property.type)}): give the form a driver in tests/e2e/drivers, or the field "examples"`);
}

export interface GenericFill {
  flowId: string;
  applicationType: ApplicationTypeName;
  bank: string;
  /** Which visit of this form in the flow's journeys (0 first): its variant (samples.ts). */
  visit: number;
}

/** The sample answers of a visit of `form`, and which fields they ask. */
export function visitAnswers(form: string, fill: GenericFill): ReturnType<typeof sampleAnswers> & { schema: FormSchema; variant: Variant } {
  const schema = formFor(formSchemaOf(form), fill.flowId);
  const variant = variantOfVisit(fill.visit);
  return { ...sampleAnswers(schema, variant, sampleContextOf(fill.bank, fill.applicationType)), schema, variant };
}

/** Answers every field `form` asks with its sample (of the visit's variant), checks that the fields it does not ask are not shown, then submits. */
export async function fillGenericForm(page: Page, form: string, fill: GenericFill): Promise<void> {
  const { schema, answers, states } = visitAnswers(form, fill);
  for (const field of fieldOrderOf(schema)) {
    const property = schema.properties?.[field];
    if (property && states.get(field)?.asked) await answer(page, schema, field, property, answers[field]);
  }
  await expectShownAsJudged(page, form, schema, states);
  await submitFormStep(page);
}

/**
 * The page shows exactly the fields the answers ask: no control of a field not asked (a hidden
 * input, if any), a control of each conditional field asked (but for hidden ones), read-only
 * while locked. `idPrefix` is the form's name on a page of several forms (FormStep.tsx).
 */
export async function expectShownAsJudged(page: Page, form: string, schema: FormSchema, states: FieldStates, idPrefix = 'root'): Promise<void> {
  const conditional = new Set(conditionsOfForm(schema).map((condition) => condition.field));
  for (const field of fieldOrderOf(schema)) {
    const controls = page.locator(`[id^="${idPrefix}_${field}"]:visible`);
    const state = stateOf(states, field);
    if (!state.asked) await expect(controls, `${form}.${field} is not asked`).toHaveCount(0);
    else if (conditional.has(field) && widgetOf(schema, field) !== 'hidden') {
      await expect(controls.first(), `${form}.${field} is asked`).toBeVisible();
      if (state.locked) await expect(controls.first(), `${form}.${field} is locked`).toHaveAttribute('readonly', '');
    }
  }
}

/** A form step's submit: 「入力内容を確認する」 when the summary follows, else 「次へ」 (the flow decides). */
export function submitFormStep(page: Page): Promise<void> {
  return formStepSubmit(page).click();
}

/** The form step's submit button, whichever of its two names the flow gives it. */
export function formStepSubmit(page: Page): Locator {
  return page.getByRole('button', { name: /^(入力内容を確認する|次へ)$/ });
}
