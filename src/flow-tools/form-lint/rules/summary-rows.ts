import { escapePointerSegment } from '../../../domain/json-pointer';
import { derivationFacts, FLOWS_KEYWORD, FORM_STEP_KEYWORD, formStepOf, isRecord, optionFieldsOf, type FormSchema } from '../../../domain/forms/format';
import { overlaysOf } from '../../../domain/forms/flow-forms';
import { withChoices } from '../../lint/words';
import type { FormRule } from '../rule';

/** The names a row of this form may show: its fields, the labels it stores, what its derivations add, the application's own columns. */
function shownNames(schema: FormSchema, columns: readonly string[]): string[] {
  const labels = optionFieldsOf(schema).flatMap(({ options }) => (options.labelAs ? [options.labelAs] : []));
  const derived = (formStepOf(schema)?.derive ?? []).flatMap((name) => (Object.hasOwn(derivationFacts, name) ? derivationFacts[name].adds : []));
  return [...new Set([...Object.keys(schema.properties ?? {}), ...labels, ...derived, ...columns])];
}

export const summaryRows: FormRule = {
  name: 'summary-rows',
  description: 'The confirmation page\'s rows (x-step.summary, the form\'s and each overlay\'s) show names the form has: its fields, the labels it stores, what the server derives for it, the mail address; a detail is a field of the form.',
  stage: 'form',
  check(form, context, report) {
    const names = shownNames(form.schema, context.columnNames);
    const fields = Object.keys(form.schema.properties ?? {});
    const lists: Array<[unknown, string]> = [[isRecord(form.schema[FORM_STEP_KEYWORD]) ? form.schema[FORM_STEP_KEYWORD].summary : undefined, `/${FORM_STEP_KEYWORD}/summary`]];
    for (const [flow, overlay] of Object.entries(overlaysOf(form.schema))) {
      const step = isRecord(overlay) && isRecord(overlay[FORM_STEP_KEYWORD]) ? overlay[FORM_STEP_KEYWORD] : undefined;
      lists.push([step?.summary, `/${FLOWS_KEYWORD}/${escapePointerSegment(flow)}/${FORM_STEP_KEYWORD}/summary`]);
    }
    for (const [rows, at] of lists) {
      if (!Array.isArray(rows)) continue;
      rows.forEach((row, index) => {
        if (!isRecord(row)) return;
        const fieldsOfRow = Array.isArray(row.fields) ? row.fields : [];
        fieldsOfRow.forEach((name, position) => {
          if (typeof name === 'string' && !names.includes(name)) report(form, `${at}/${index}/fields/${position}`, withChoices(`the row "${String(row.term)}" shows "${name}", which this form neither asks nor stores`, name, 'names it has', names));
        });
        const detail = isRecord(row.detail) ? row.detail.field : undefined;
        if (typeof detail === 'string' && !fields.includes(detail)) report(form, `${at}/${index}/detail/field`, withChoices(`the detail "${detail}" is not a field of this form`, detail, 'fields', fields));
      });
    }
  },
};
