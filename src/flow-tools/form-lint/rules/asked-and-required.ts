import { isRecord, REQUIRED_WHEN_KEYWORD, WHEN_KEYWORD } from '../../../domain/forms/format';
import { overlaysOf } from '../../../domain/forms/flow-forms';
import type { FormRule } from '../rule';

export const askedAndRequired: FormRule = {
  name: 'asked-and-required',
  description: 'What "required" and the conditions say of a field fits together: a required field can be asked, a field is required one way (always while asked, or while x-required-when holds), and "required" names fields of the form.',
  stage: 'form',
  check(form, _context, report) {
    const properties = form.schema.properties ?? {};
    const required = Array.isArray(form.schema.required) ? form.schema.required : [];
    const overlays = Object.values(overlaysOf(form.schema)).filter(isRecord);
    required.forEach((field, index) => {
      if (!Object.hasOwn(properties, field)) report(form, `/required/${index}`, `"required" names "${field}", which is not a field of this form`);
    });
    for (const [field, property] of Object.entries(properties)) {
      if (!isRecord(property)) continue;
      const requiredHere = required.includes(field) || property[REQUIRED_WHEN_KEYWORD] !== undefined;
      // Asked nowhere: false in the form, and no flow's overlay asks it.
      const askedInSomeFlow = overlays.some((overlay) => {
        const own = isRecord(overlay.properties) ? overlay.properties[field] : undefined;
        return isRecord(own) && own[WHEN_KEYWORD] !== undefined && own[WHEN_KEYWORD] !== false;
      });
      if (property[WHEN_KEYWORD] === false && !askedInSomeFlow && requiredHere) {
        report(form, `/properties/${field}/${WHEN_KEYWORD}`, `"${field}" is required but never asked (its x-when is false): an applicant could never give it; ask it, or do not require it`);
      }
      if (required.includes(field) && property[REQUIRED_WHEN_KEYWORD] !== undefined) {
        report(form, `/properties/${field}/${REQUIRED_WHEN_KEYWORD}`, `"${field}" is in "required" (always required while asked) and has an x-required-when (required only while it holds): keep one`);
      }
      for (const keyword of [REQUIRED_WHEN_KEYWORD, 'x-locked-when'] as const) {
        if (property[keyword] === false) report(form, `/properties/${field}/${keyword}`, `an ${keyword} of false never holds: remove it`);
      }
    }
  },
};
