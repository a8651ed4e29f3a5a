import { fieldTests } from '../../../domain/forms/conditions';
import { isRecord } from '../../../domain/forms/format';
import { formConditionNames } from '../../../domain/rules/registry';
import { withChoices } from '../../lint/words';
import { conditionsOf, type FormsContext } from '../context';
import type { FormReport, FormRule, Located } from '../rule';

/** The keys each shape of condition has besides its own. */
const shapes = ['field', 'all', 'any', 'not', 'condition', 'bank'] as const;

const SHAPES_IN_WORDS =
  'a condition is true, false, { "field": <a field>, and one of "equals", "notEquals", "oneOf", "includes", "answered" }, { "all": [ … ] }, { "any": [ … ] }, { "not": … }, { "condition": <a named condition> } or { "bank": [ <bank codes> ] }';

function checkPart(part: unknown, pointer: string, at: Located, context: FormsContext, report: FormReport): void {
  if (typeof part === 'boolean') return;
  if (!isRecord(part)) {
    report(at, pointer, `not a condition: ${SHAPES_IN_WORDS}`);
    return;
  }
  const keys = Object.keys(part);
  const shape = shapes.find((name) => Object.hasOwn(part, name));
  if (shape === undefined) {
    const [key = ''] = keys;
    report(at, keys.length > 0 ? `${pointer}/${key}` : pointer, withChoices(`unknown key "${key}" in a condition`, key, 'a condition starts with', shapes));
    return;
  }
  const allowed: readonly string[] = shape === 'field' ? ['field', ...fieldTests] : [shape];
  for (const key of keys) if (!allowed.includes(key)) report(at, `${pointer}/${key}`, withChoices(`unknown key "${key}" in a "${shape}" condition`, key, 'allowed keys here', allowed));
  switch (shape) {
    case 'field': {
      if (typeof part.field !== 'string' || part.field === '') report(at, `${pointer}/field`, '"field" names a field of the form or of an earlier page');
      const tests = fieldTests.filter((test) => Object.hasOwn(part, test));
      if (tests.length !== 1) report(at, pointer, `a "field" condition makes exactly one test (${fieldTests.join(', ')}), not ${tests.length === 0 ? 'none' : tests.join(' and ')}`);
      if ('oneOf' in part && (!Array.isArray(part.oneOf) || part.oneOf.length === 0)) report(at, `${pointer}/oneOf`, '"oneOf" is a list of the values, at least one');
      if ('answered' in part && typeof part.answered !== 'boolean') report(at, `${pointer}/answered`, '"answered" is true (the field has an answer) or false');
      return;
    }
    case 'all':
    case 'any': {
      const list = part[shape];
      if (!Array.isArray(list) || list.length === 0) report(at, `${pointer}/${shape}`, `"${shape}" is a list of conditions, at least one`);
      else list.forEach((item, index) => checkPart(item, `${pointer}/${shape}/${index}`, at, context, report));
      return;
    }
    case 'not':
      checkPart(part.not, `${pointer}/not`, at, context, report);
      return;
    case 'condition': {
      const name = String(part.condition);
      if (!formConditionNames.includes(name as (typeof formConditionNames)[number])) {
        report(at, `${pointer}/condition`, withChoices(`unknown condition "${name}"`, name, 'known conditions, src/domain/rules/registry.ts', formConditionNames));
      }
      return;
    }
    case 'bank': {
      const banks = part.bank;
      if (!Array.isArray(banks) || banks.length === 0) report(at, `${pointer}/bank`, '"bank" is a list of bank codes, at least one');
      else banks.forEach((code, index) => {
        if (!context.bankCodes.includes(String(code))) report(at, `${pointer}/bank/${index}`, withChoices(`unknown bank "${String(code)}"`, String(code), 'banks, banks/<code>', context.bankCodes));
      });
    }
  }
}

export const conditionShape: FormRule = {
  name: 'condition-shape',
  description: 'Every condition (x-when, x-required-when, x-locked-when, in the form or an overlay) has one of the shapes of the condition language, with known keys, a named condition the registry has and banks that exist.',
  stage: 'form',
  check(form, context, report) {
    for (const { condition, pointer } of conditionsOf(form.schema)) checkPart(condition, pointer, form, context, report);
  },
};
