import { isRecord, OPTIONS_KEYWORD } from '../../../domain/forms/format';
import type { FormRule } from '../rule';

/** The types a choice of bank data can have: its values are codes or ids. */
function fitsOptions(property: Record<string, unknown>): boolean {
  const type = JSON.stringify(property.type);
  if (['"string"', '["string","null"]', '"integer"', '["integer","null"]'].includes(type)) return true;
  return type === '"array"' && isRecord(property.items) && property.items.type === 'string';
}

export const optionFields: FormRule = {
  name: 'option-fields',
  description: 'A field filled from bank data (x-options) is a text or a whole number (either may be null), or a list of texts: the data are codes and ids.',
  stage: 'form',
  check(form, _context, report) {
    for (const [field, property] of Object.entries(form.schema.properties ?? {})) {
      if (!isRecord(property) || property[OPTIONS_KEYWORD] === undefined || fitsOptions(property)) continue;
      report(form, `/properties/${field}/type`, 'a field filled from data (x-options) must be "type": "string" or "integer" (or either with "null"), or an "array" of strings');
    }
  },
};
