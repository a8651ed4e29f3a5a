import { partsOf } from '../../../domain/forms/conditions';
import { isRecord, type FormSchema } from '../../../domain/forms/format';
import { withChoices } from '../../lint/words';
import { conditionsOf, flowsAsking, formsBefore, ownerAmong, valuesOfField, type FormFile, type FormsContext } from '../context';
import type { CatalogueRule } from '../rule';

/** The schema that has the field a condition of `form` reads: its own, or the nearest earlier form's in a flow asking it. */
function ownerOf(context: FormsContext, form: FormFile, field: string, flow: string | undefined): FormSchema | undefined {
  if (Object.hasOwn(form.schema.properties ?? {}, field)) return form.schema;
  for (const asking of flowsAsking(context, form.name, flow)) {
    const owner = ownerAmong(context, formsBefore(asking, form.name) ?? [], field);
    if (owner) return owner.schema;
  }
  return undefined;
}

const show = (value: unknown) => JSON.stringify(value);

export const conditionValues: CatalogueRule = {
  name: 'condition-values',
  description: 'A condition tests a field against values it can take: one of its options (oneOf, enum, a yes/no, the bank data known without a database), and "includes" only a field of several choices.',
  stage: 'catalogue',
  check(context, report) {
    for (const form of context.forms) {
      for (const written of conditionsOf(form.schema)) {
        for (const { part, pointer } of partsOf(written.condition, written.pointer)) {
          if (!isRecord(part) || typeof part.field !== 'string') continue;
          const owner = ownerOf(context, form, part.field, written.flow);
          if (!owner) continue;
          const property = owner.properties?.[part.field];
          const list = isRecord(property) && property.type === 'array';
          if ('includes' in part && !list) report(form, `${pointer}/includes`, `"includes" tests a field of several choices, but "${part.field}" holds one answer: write "equals" or "oneOf"`);
          if (('equals' in part || 'notEquals' in part) && list) report(form, pointer, `"${part.field}" holds several choices: test one of them with "includes"`);
          const values = valuesOfField(owner, part.field, context);
          if (!values) continue;
          const tested: Array<[string, unknown]> = [];
          for (const test of ['equals', 'notEquals', 'includes'] as const) if (test in part) tested.push([`${pointer}/${test}`, part[test]]);
          if (Array.isArray(part.oneOf)) part.oneOf.forEach((value, index) => tested.push([`${pointer}/oneOf/${index}`, value]));
          for (const [at, value] of tested) {
            if (values.some((option) => Object.is(option, value))) continue;
            report(form, at, withChoices(`${show(value)} is not a value "${part.field}" can take, so this test never changes`, String(value), 'its values', values.map(show)));
          }
        }
      }
    }
  },
};
