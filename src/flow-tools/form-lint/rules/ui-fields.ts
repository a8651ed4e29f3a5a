import { escapePointerSegment } from '../../../domain/json-pointer';
import { FLOWS_KEYWORD, isRecord, UI_KEYWORD } from '../../../domain/forms/format';
import { overlaysOf } from '../../../domain/forms/flow-forms';
import { requiredUiOptions, uiOptionDescriptions, type UiOptionName, type WidgetName } from '../../../domain/forms/ui-vocabulary';
import { withChoices } from '../../lint/words';
import type { FormReport, FormRule, Located } from '../rule';

/** The options that name a field of the form. */
const fieldOptions: readonly UiOptionName[] = ['errorsAt', 'accountField'];

function checkUi(ui: unknown, at: string, fields: readonly string[], widgetsOf: ((field: string) => string | undefined) | undefined, form: Located, report: FormReport): void {
  if (!isRecord(ui)) return;
  for (const [field, entry] of Object.entries(ui)) {
    if (field === 'ui:order' || !isRecord(entry)) continue;
    const pointer = `${at}/${escapePointerSegment(field)}`;
    if (!fields.includes(field)) {
      report(form, pointer, withChoices(`x-ui describes "${field}", which is not a field of this form`, field, 'fields', fields));
      continue;
    }
    const widget = (typeof entry['ui:widget'] === 'string' ? entry['ui:widget'] : widgetsOf?.(field)) as WidgetName | undefined;
    const options = isRecord(entry['ui:options']) ? entry['ui:options'] : {};
    for (const [option, value] of Object.entries(options)) {
      const described = (uiOptionDescriptions as Record<string, (typeof uiOptionDescriptions)[UiOptionName]>)[option];
      if (!described) continue; // the form format names an unknown option
      if (described.widgets !== '*' && (widget === undefined || !(described.widgets as readonly string[]).includes(widget))) {
        report(form, `${pointer}/ui:options/${option}`, `"${option}" is read by ${(described.widgets as readonly string[]).join(', ')}, not by ${widget === undefined ? 'the field\'s default control' : widget}: it would do nothing here`);
      }
      if (fieldOptions.includes(option as UiOptionName) && typeof value === 'string' && !fields.includes(value)) {
        report(form, `${pointer}/ui:options/${option}`, withChoices(`"${option}" names "${value}", which is not a field of this form`, value, 'fields', fields));
      }
    }
    // An overlay adds to the form's options: what a widget needs is the form's to give.
    for (const needed of widget && !widgetsOf ? (requiredUiOptions[widget] ?? []) : []) {
      if (options[needed] === undefined) report(form, pointer, `${widget} needs "ui:options": { "${needed}": … } (${uiOptionDescriptions[needed].description})`);
    }
  }
}

export const uiFields: FormRule = {
  name: 'ui-fields',
  description: 'x-ui (the form\'s and each overlay\'s) describes fields of the form, with ui:options the field\'s widget reads, the options a widget needs, and options that name a field naming one.',
  stage: 'form',
  check(form, _context, report) {
    const fields = Object.keys(form.schema.properties ?? {});
    const base = isRecord(form.schema[UI_KEYWORD]) ? form.schema[UI_KEYWORD] : {};
    const baseWidget = (field: string) => {
      const entry = base[field];
      return isRecord(entry) && typeof entry['ui:widget'] === 'string' ? entry['ui:widget'] : undefined;
    };
    checkUi(base, `/${UI_KEYWORD}`, fields, undefined, form, report);
    for (const [flow, overlay] of Object.entries(overlaysOf(form.schema))) {
      if (isRecord(overlay)) checkUi(overlay[UI_KEYWORD], `/${FLOWS_KEYWORD}/${escapePointerSegment(flow)}/${UI_KEYWORD}`, fields, baseWidget, form, report);
    }
  },
};
