import { formStepOf, optionFieldsOf, storedEntityOf } from '../../../domain/forms/format';
import type { CatalogueRule } from '../rule';
import { askedForms, type FlowUse } from '../context';

export const uniqueFieldNames: CatalogueRule = {
  name: 'unique-field-names',
  description: 'In one flow, the forms stored into one record (the application, or x-step.storedAs\'s) give their fields and labels names of their own, and none a column\'s: GET /api/applications merges them by name.',
  stage: 'catalogue',
  check(context, report) {
    // Per flow, per record: field name → the form (or the columns) that has it.
    const ownersOf = new Map<FlowUse, Map<string, Map<string, string>>>();
    for (const { flow, name, form, pointer } of askedForms(context)) {
      if (!form) continue;
      const owners = ownersOf.get(flow) ?? new Map([['application', new Map(context.columnNames.map((column) => [column, 'the stored application']))]]);
      ownersOf.set(flow, owners);
      const generic = formStepOf(form.schema) !== undefined;
      const entity = storedEntityOf(form.schema);
      const record = owners.get(entity) ?? new Map<string, string>();
      owners.set(entity, record);
      const labels = optionFieldsOf(form.schema).flatMap(({ options }) => (options.labelAs === undefined ? [] : [options.labelAs]));
      for (const field of [...Object.keys(form.schema.properties ?? {}), ...labels]) {
        const owner = record.get(field);
        if (owner === undefined) record.set(field, `form "${name}"`);
        else if (generic && owner !== `form "${name}"`) {
          report(flow, pointer, `form "${name}" has a field "${field}", which ${owner} of this flow has too; rename one (the answers of a flow share one record)`);
        }
      }
    }
  },
};
