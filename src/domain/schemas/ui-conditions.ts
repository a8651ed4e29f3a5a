import { formConditions, type FormConditionName, type FormRuleContext } from '../rules/registry';
import { isRecord, uiSchemaOf, type FormSchema } from './form-step';

/**
 * What a field's x-ui may make depend on the answers by naming a condition of
 * rules/registry.ts in its `ui:options`: `"requiredWhen"` (the page marks the field required
 * while it holds, optional otherwise; the rule that requires it is the form's, e.g. "workplace")
 * and `"readonlyWhen"` (the page locks it while it holds, e.g. a workplace's name once its
 * code is applied). The page only draws these: what is accepted stays the schema's and the rules'.
 */
export const uiConditionOptions = ['requiredWhen', 'readonlyWhen'] as const;
export type UiConditionOption = (typeof uiConditionOptions)[number];

export interface UiCondition {
  field: string;
  option: UiConditionOption;
  /** As written: the lint refuses a name the registry does not know. */
  condition: string;
}

/** Every ui:options of the form's x-ui that names a condition. */
export function uiConditionsOf(schema: FormSchema): UiCondition[] {
  const found: UiCondition[] = [];
  for (const [field, entry] of Object.entries(uiSchemaOf(schema))) {
    const options = isRecord(entry) && isRecord(entry['ui:options']) ? entry['ui:options'] : undefined;
    for (const option of uiConditionOptions) {
      const condition = options?.[option];
      if (condition !== undefined) found.push({ field, option, condition: String(condition) });
    }
  }
  return found;
}

/** Which fields each option holds for, given the answers (one text per option, to tell a change). */
export function heldUiConditions(schema: FormSchema, answers: Readonly<Record<string, unknown>>, context: FormRuleContext): Record<UiConditionOption, Set<string>> {
  const held: Record<UiConditionOption, Set<string>> = { requiredWhen: new Set(), readonlyWhen: new Set() };
  for (const { field, option, condition } of uiConditionsOf(schema)) {
    if (Object.hasOwn(formConditions, condition) && formConditions[condition as FormConditionName](answers, context)) held[option].add(field);
  }
  return held;
}
