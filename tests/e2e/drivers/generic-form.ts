import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { fieldOrderOf, OPTIONS_KEYWORD, uiSchemaOf, type FormProperty, type FormSchema } from '../../../src/domain/schemas/form-step';
import { groupOf } from '../support';

/**
 * A valid answer to any generic form step, read from its schema alone: what a product owner's
 * new form needs from the journeys without a driver of its own. The schemas are those of the
 * server under test (E2E_SCHEMAS_DIR, else the repository's schemas/).
 */
const schemasDir = process.env.E2E_SCHEMAS_DIR ?? new URL('../../../schemas/', import.meta.url).pathname;

export function formSchemaOf(form: string): FormSchema {
  return JSON.parse(readFileSync(join(schemasDir, `${form}.schema.json`), 'utf8')) as FormSchema;
}

/** The widgets that show their choices as cards (a click on the card's text chooses it). */
const CARD_WIDGETS = ['RadioCardsWidget', 'ChoiceCardsWidget', 'radio'];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The first option's title (oneOf) or value (enum), or null for a field with no listed options. */
function firstOption(property: FormProperty): string | null {
  const [option] = property.oneOf ?? [];
  if (option) return option.title ?? String(option.const);
  const [value] = property.enum ?? [];
  return value === undefined ? null : String(value);
}

async function answer(page: Page, field: string, property: FormProperty, widget: unknown): Promise<void> {
  const title = property.title ?? field;
  // A label reads "<title>必須" or "<title>任意": the title starts it.
  const label = new RegExp(`^${escapeRegExp(title)}`);
  if (property[OPTIONS_KEYWORD] !== undefined) {
    // Cards filled from bank data: the first one.
    await groupOf(page, title).locator('label').first().click();
    return;
  }
  const first = firstOption(property);
  if (first !== null) {
    if (property.type === 'boolean' || (typeof widget === 'string' && CARD_WIDGETS.includes(widget))) {
      await groupOf(page, title).getByText(first, { exact: true }).click();
    } else {
      await page.getByLabel(label).selectOption({ label: first });
    }
    return;
  }
  if (property.type === 'boolean') {
    await page.getByLabel(label).check();
    return;
  }
  if (property.type === 'string') {
    const maxLength = typeof property.maxLength === 'number' ? property.maxLength : undefined;
    await page.getByLabel(label).fill('テスト'.slice(0, maxLength));
  }
}

/** Answers every field of `form` with a valid value (the first option, or テスト), then submits. */
export async function fillGenericForm(page: Page, form: string): Promise<void> {
  const schema = formSchemaOf(form);
  const ui = uiSchemaOf(schema);
  for (const field of fieldOrderOf(schema)) {
    const property = schema.properties?.[field];
    const fieldUi = ui[field];
    const widget = typeof fieldUi === 'object' && fieldUi !== null ? (fieldUi as Record<string, unknown>)['ui:widget'] : undefined;
    if (property) await answer(page, field, property, widget);
  }
  await submitFormStep(page);
}

/** A form step's submit: 「入力内容を確認する」 when the summary follows, else 「次へ」 (the flow decides). */
export function submitFormStep(page: Page): Promise<void> {
  return page.getByRole('button', { name: /^(入力内容を確認する|次へ)$/ }).click();
}
