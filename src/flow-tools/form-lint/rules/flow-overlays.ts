import { escapePointerSegment } from '../../../domain/json-pointer';
import { FLOWS_KEYWORD, isRecord } from '../../../domain/forms/format';
import { overlaysOf } from '../../../domain/forms/flow-forms';
import { withChoices } from '../../lint/words';
import { formsBefore } from '../context';
import type { CatalogueRule } from '../rule';

export const flowOverlays: CatalogueRule = {
  name: 'flow-overlays',
  description: 'x-flows holds overlays for flows of flows/ (by their id) that ask the form, and an overlay\'s conditions are about fields of the form.',
  stage: 'catalogue',
  check(context, report) {
    if (context.flows === undefined) return;
    const ids = context.flows.map((flow) => flow.id);
    for (const form of context.forms) {
      const fields = Object.keys(form.schema.properties ?? {});
      for (const [id, overlay] of Object.entries(overlaysOf(form.schema))) {
        const at = `/${FLOWS_KEYWORD}/${escapePointerSegment(id)}`;
        const flow = context.flows.find((candidate) => candidate.id === id);
        if (!flow) {
          report(form, at, withChoices(`unknown flow "${id}"`, id, 'flows, flows/<id>.json', ids));
          continue;
        }
        if (formsBefore(flow, form.name) === undefined) report(form, at, `flow "${id}" does not ask form "${form.name}" on any page, so this overlay would do nothing`);
        const properties = isRecord(overlay) && isRecord(overlay.properties) ? overlay.properties : {};
        for (const field of Object.keys(properties)) {
          if (!fields.includes(field)) report(form, `${at}/properties/${escapePointerSegment(field)}`, withChoices(`unknown field "${field}"`, field, 'fields of this form', fields));
        }
      }
    }
  },
};
