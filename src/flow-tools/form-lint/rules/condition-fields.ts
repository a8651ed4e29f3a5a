import { fieldsReadBy, partsOf } from '../../../domain/forms/conditions';
import { isRecord } from '../../../domain/forms/format';
import { withChoices } from '../../lint/words';
import { conditionsOf, flowsAsking, formsBefore, ownerAmong } from '../context';
import type { CatalogueRule } from '../rule';

export const conditionFields: CatalogueRule = {
  name: 'condition-fields',
  description: 'A condition reads a field the applicant has been asked by then: one of its own form, or of a form every flow asking it asks before it (earlier on the page, or on an earlier page); never the field it decides about.',
  stage: 'catalogue',
  check(context, report) {
    if (context.flows === undefined) return;
    for (const form of context.forms) {
      const own = Object.keys(form.schema.properties ?? {});
      for (const written of conditionsOf(form.schema)) {
        for (const { part, pointer } of partsOf(written.condition, written.pointer)) {
          if (!isRecord(part) || typeof part.field !== 'string') continue;
          const field = part.field;
          const at = `${pointer}/field`;
          if (field === written.field) {
            report(form, at, `the ${written.keyword} of "${field}" reads "${field}" itself: a field cannot decide about itself`);
            continue;
          }
          if (own.includes(field)) continue;
          const flows = flowsAsking(context, form.name, written.flow);
          const missing = flows.filter((flow) => ownerAmong(context, formsBefore(flow, form.name) ?? [], field) === undefined);
          if (flows.length > 0 && missing.length === 0) continue;
          const earlier = [...new Set(flows.flatMap((flow) => formsBefore(flow, form.name) ?? []))];
          const elsewhere = context.forms.find((other) => Object.hasOwn(other.schema.properties ?? {}, field));
          const what = elsewhere
            ? `field "${field}" of form "${elsewhere.name}", which ${missing.map((flow) => `flow "${flow.id}"`).join(' and ')} ${missing.length > 1 ? 'do' : 'does'} not ask before this form: an applicant would not have answered it yet`
            : `unknown field "${field}"`;
          report(form, at, withChoices(what, field, `fields of this form${earlier.length > 0 ? ` and of ${earlier.join(', ')}` : ''}`, own));
        }
      }
      checkCycles(form.schema, (pointer, message) => report(form, pointer, message));
    }
  },
};

/** Fields of one form whose x-when read each other round a circle: none of them would ever be asked. */
function checkCycles(schema: { properties?: Record<string, unknown> }, report: (pointer: string, message: string) => void): void {
  const properties = schema.properties ?? {};
  const reads = new Map(Object.entries(properties).map(([field, property]) => [field, isRecord(property) ? fieldsReadBy(property['x-when']).filter((read) => read !== field && Object.hasOwn(properties, read)) : []]));
  const reported = new Set<string>();
  for (const start of reads.keys()) {
    const path: string[] = [];
    const walk = (field: string): string[] | undefined => {
      if (path.includes(field)) return [...path.slice(path.indexOf(field)), field];
      path.push(field);
      for (const next of reads.get(field) ?? []) {
        const circle = walk(next);
        if (circle) return circle;
      }
      path.pop();
      return undefined;
    };
    const circle = walk(start);
    if (!circle || circle[0] !== start || reported.has(start)) continue;
    circle.forEach((field) => reported.add(field));
    report(`/properties/${start}/x-when`, `the x-when of ${circle.map((field) => `"${field}"`).join(' → ')} read each other round a circle: none of them would ever be asked`);
  }
}
